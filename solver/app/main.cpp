#include "commands.hpp"
#include "eipc/common.hpp"

#include <cstdio>
#include <malloc.h>
#include <exception>

int main(int argc, char** argv) {
  // Newton iterations allocate and free multi-megabyte assembly buffers; keep
  // them on the heap instead of mmap/munmap each time (halved assembly time).
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  CLI::App app{"eipc: Embedded IPC simulator, benchmark and certification suite", "eipc"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "eipc " EIPC_VERSION);
  eipc::cli::add_run_command(app);
  eipc::cli::add_ccd_command(app);
  eipc::cli::add_certify_command(app);
  eipc::cli::add_embed_command(app);
  eipc::cli::add_error_command(app);
  eipc::cli::add_sweep_command(app);
  eipc::cli::add_report_command(app);
  eipc::cli::add_fields_command(app);
  eipc::cli::add_forces_command(app);
  eipc::cli::add_convert_command(app);
  if (argc == 1) {  // no subcommand: say which there are
    std::fputs(app.help().c_str(), stderr);
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a subcommand's own exit code
    return e.get_exit_code();
  } catch (const CLI::ExtrasError& e) {
    std::fprintf(stderr, "%s\n", eipc::cli::unexpected_arguments_message(app, argc, argv, e.what()).c_str());
    return 2;
  } catch (const CLI::ParseError& e) {  // usage error (or --help, which exits 0)
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const eipc::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "internal error: %s\n", e.what());
    return 4;
  }
  return 0;
}
