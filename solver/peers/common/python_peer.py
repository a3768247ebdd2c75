"""What the Python peer drivers (eipc-drake, eipc-mujoco-flex) share around their engines:
options read from a TOML settings file, the stop on SIGINT/SIGTERM, the summary, and the
run through eipc.PeerRun with the peers' exit codes (docs/peers.md): 0 complete, 2 bad input
or a scene feature the engine cannot map, 3 the engine could not finish (trajectory kept,
marked incomplete), 4 internal error."""
import json
import signal
import sys
import tomllib

EXIT_OK, EXIT_INPUT, EXIT_FAILED, EXIT_INTERNAL = 0, 2, 3, 4


class InputProblem(Exception):
    """Bad options or settings (exit 2)."""


class Unsupported(Exception):
    """A scene feature the driver has no model for in its engine (exit 2, never dropped silently)."""


def parse_with_config(parser, argv):
    """parser's options, with --config FILE.toml's keys (the long options) as defaults:
    the command line wins over the file."""
    first = parser.parse_args(argv)
    if not first.config:
        return first
    try:
        with open(first.config, "rb") as f:
            table = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise InputProblem(f"{first.config}: {e}")
    known = {a.dest for a in parser._actions}
    defaults = {}
    for key, value in table.items():
        dest = key.replace("-", "_")
        if dest not in known or dest in ("scene", "config"):
            raise InputProblem(f"{first.config}: unknown option '{key}'")
        defaults[dest] = value
    parser.set_defaults(**defaults)
    return parser.parse_args(argv)


STOP = []  # the signal that asked the run to stop (acted on before the next step)


def check_stop():
    """Called before each engine step: a signal arrived, so the run ends here, its trajectory
    finished (incomplete, with the reason, exit 3)."""
    if STOP:
        raise KeyboardInterrupt(f"interrupted by {STOP[0]}")


def on_signal(number, frame):
    """First SIGINT/SIGTERM: stop before the next step, wherever Python happened to be; a
    second one interrupts at once."""
    STOP.append(signal.Signals(number).name)
    signal.signal(number, signal.SIG_DFL if number == signal.SIGTERM else signal.default_int_handler)


def print_summary(summary, as_json, iterations):
    """The run's summary, as JSON or as text; iterations: the engine's line about its
    per-step iterations (label, text from the summary)."""
    if as_json:
        print(json.dumps(summary, indent=2))
        return
    reason = summary.get("reason", "")
    print(f"engine            {summary['engine']}")
    print(f"status            {summary['status']}" + (f" ({reason})" if reason else ""))
    print(f"steps             {summary['steps']}")
    print(f"simulated time    {summary['simulated_seconds']:.4f} s")
    print(f"wall time         {summary['wall_seconds']:.3f} s")
    print(f"real-time factor  {summary['real_time_factor']:.3f} (simulated / wall)")
    label, text = iterations(summary)
    print(f"{label:<18}{text}")
    print(f"trajectory        {summary['output']}")


def run_peer(argv, name, parse_args, prepare, make_engine, iterations):
    """The driver's whole run: options, prepare() (imports the engine; returns an error
    message or None), the scene loaded and start-checked by eipc.PeerRun, the engine built
    by make_engine(run, opts) and run by PeerRun's loop. Returns the exit code."""
    try:
        opts = parse_args(argv)
    except InputProblem as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    try:
        import eipc
    except ImportError as e:
        print(f"error: the eipc Python module is not importable ({e}); build it (EIPC_TARGETS=eipc_python "
              f"ci/build build) and run eipc-{name} from the build's bin/", file=sys.stderr)
        return EXIT_INPUT
    problem = prepare()
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_INPUT
    try:
        run = eipc.PeerRun(opts.scene, dt=opts.dt, duration=opts.duration, embedding=opts.embedding, set=opts.set)
        engine = make_engine(run, opts)
    except eipc.InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except Unsupported as e:
        print(f"error: {opts.scene}: {e} cannot be mapped to {name}", file=sys.stderr)
        return EXIT_INPUT
    except InputProblem as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    out = opts.out or f"{run.name}_{name}.h5"
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        summary = run.run(engine, out, max_wall=opts.max_wall, progress=sys.stderr.isatty())
    except eipc.InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    print_summary(summary, opts.json, iterations)
    if summary["status"] != "complete":
        print(f"error: {name} could not finish: {summary.get('reason', '')}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def exit_with(main):
    """sys.exit(main()), an uncaught error being exit 4 with its traceback."""
    try:
        sys.exit(main())
    except SystemExit:
        raise
    except BaseException:
        import traceback
        traceback.print_exc()
        sys.exit(EXIT_INTERNAL)
