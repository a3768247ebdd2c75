"""Timings on a shared machine: start a timed run only once the machine is quiet."""
import os
import time


def wait_for_load(max_load, wait_seconds, poll_seconds=5):
    """Sleeps until the 1-minute load average is below max_load, or wait_seconds have
    passed; returns the load average then (the caller records it, and decides what a run
    started above max_load is worth)."""
    deadline = time.time() + wait_seconds
    while os.getloadavg()[0] >= max_load and time.time() < deadline:
        time.sleep(poll_seconds)
    return os.getloadavg()[0]
