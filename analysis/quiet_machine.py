"""Timings on a shared machine: start a timed run only once the machine is quiet."""
import math
import os
import time


def wait_for_load(max_load, wait_seconds, poll_seconds=5):
    """Sleeps until the 1-minute load average is below max_load, or wait_seconds have
    passed; returns the load average then (the caller records it, and decides what a run
    started above max_load is worth)."""
    deadline = time.time() + wait_seconds
    while True:
        load = os.getloadavg()[0]  # the reading that passed is the one recorded (a second may tick up)
        if load < max_load or time.time() >= deadline:
            return load
        time.sleep(poll_seconds)


def load_text(load):
    """The load average to two decimals, rounded down: a run that started below 0.5 never reads 0.50."""
    return f"{math.floor(load * 100) / 100:.2f}"

