"""The reference for `npm run bench`'s kernel section: a stock ipykernel driven through jupyter_client.

Runs as a long-lived client, the way an application embedding jupyter_client would: it imports the
library once, then takes commands from the bench as JSON lines on stdin and answers each with one JSON
line on stdout. Every figure is timed here, around the jupyter_client calls, with time.perf_counter():
what a jupyter_client user sees, without the bench's own pipe to this process in it.

Commands (one kernel at a time):
  {"cmd": "cold_start"}            start_new_kernel → ready, then the first `1+1`; the kernel is stopped
  {"cmd": "open"}                  start the kernel the next commands use
  {"cmd": "round_trip", "n": N}    N × `1+1`, each until its execute_reply and the idle status (and
                                   until its execute_result, the moment the value is in hand)
  {"cmd": "throughput", "lines": L, "width": W}   print L lines of W bytes (newline included)
  {"cmd": "input", "n": N}         one cell calling input() N times, answered at once
  {"cmd": "interrupt"}             `time.sleep(100)`, interrupted once it runs
  {"cmd": "close"}                 stop the kernel
First line out: the versions in use. End of input stops any kernel and exits.
Answers: {"ok": true, ...} or {"ok": false, "error": "..."}.
"""

import json
import signal
import sys
import time

try:
    from jupyter_client.manager import start_new_kernel
except ImportError as exc:  # the bench checks first; this is the safety net
    print(json.dumps({"ok": False, "error": "jupyter_client is not importable: %s" % exc}), flush=True)
    sys.exit(0)

TIMEOUT = 60.0
ROUND_TRIP = "1+1"


class Reference:
    def __init__(self):
        self.km = None
        self.kc = None

    def start(self):
        """Starts a kernel and waits for it to answer kernel_info (start_new_kernel does both)."""
        began = time.perf_counter()
        self.km, self.kc = start_new_kernel(kernel_name="python3", startup_timeout=TIMEOUT)
        return (time.perf_counter() - began) * 1000, self.km.provisioner.process.pid

    def stop(self):
        km, kc = self.km, self.kc
        self.km = self.kc = None
        if kc is not None:
            kc.stop_channels()
        if km is not None and km.has_kernel:
            km.shutdown_kernel(now=True)

    def run(self, code, on_iopub=None, stdin_requests=0, on_stdin=None):
        """Executes a cell and waits for what a client needs to call it done: the execute_reply on shell and
        the idle status on iopub (so every output has arrived). Returns the reply's content. With
        stdin_requests, first answers that many input requests (the cell blocks on each one meanwhile)."""
        kc = self.kc
        msg_id = kc.execute(code, allow_stdin=stdin_requests > 0)
        for _ in range(stdin_requests):
            on_stdin(kc.get_stdin_msg(timeout=TIMEOUT))
        idle = False
        while not idle:
            msg = kc.get_iopub_msg(timeout=TIMEOUT)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                idle = True
            elif on_iopub is not None:
                on_iopub(msg)
        reply = None
        while reply is None:
            msg = kc.get_shell_msg(timeout=TIMEOUT)
            if msg["parent_header"].get("msg_id") == msg_id:
                reply = msg["content"]
        return reply

    def timed(self, code, **kwargs):
        began = time.perf_counter()
        reply = self.run(code, **kwargs)
        return (time.perf_counter() - began) * 1000, reply

    def round_trip(self, n):
        """Each until done (reply and idle), and until the value is in hand (its execute_result)."""
        times, values = [], []
        for _ in range(n):
            began = time.perf_counter()
            value = []

            def on_iopub(msg):
                if msg["msg_type"] == "execute_result":
                    value.append(time.perf_counter())

            reply = self.run(ROUND_TRIP, on_iopub=on_iopub)
            times.append((time.perf_counter() - began) * 1000)
            expect(reply["status"] == "ok" and len(value) == 1, "1+1 failed: %r" % reply)
            values.append((value[0] - began) * 1000)
        return {"ms": times, "value_ms": values}

    def throughput(self, lines, width):
        code = "line = 'x' * %d\nfor _ in range(%d):\n    print(line)" % (width - 1, lines)
        received = [0]

        def on_iopub(msg):
            if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
                received[0] += len(msg["content"]["text"])

        ms, reply = self.timed(code, on_iopub=on_iopub)
        expect(reply["status"] == "ok", "the print loop failed: %r" % reply)
        expect(received[0] == lines * width, "got %d of %d bytes" % (received[0], lines * width))
        return {"ms": ms, "bytes": received[0]}

    def input(self, n):
        arrivals = []

        def on_stdin(request):
            arrivals.append(time.perf_counter())
            self.kc.input("x")

        code = "answers = [input('? ') for _ in range(%d)]\nlen(answers)" % n
        reply = self.run(code, stdin_requests=n, on_stdin=on_stdin)
        expect(reply["status"] == "ok" and len(arrivals) == n, "input cell: %r, %d requests" % (reply, len(arrivals)))
        # One round trip: request received → answer sent → input() returns → the next request received.
        return {"ms": [(b - a) * 1000 for a, b in zip(arrivals, arrivals[1:])]}

    def interrupt(self):
        state = {"t0": None}

        def on_iopub(msg):
            if state["t0"] is None and msg["msg_type"] == "stream" and "go" in msg["content"]["text"]:
                state["t0"] = time.perf_counter()
                self.km.interrupt_kernel()

        reply = self.run("import sys, time\nprint('go'); sys.stdout.flush()\ntime.sleep(100)", on_iopub=on_iopub)
        ms = (time.perf_counter() - state["t0"]) * 1000
        expect(reply["status"] == "error" and reply["ename"] == "KeyboardInterrupt", "interrupt: %r" % reply)
        return {"ms": ms}


def expect(condition, message):
    if not condition:
        raise RuntimeError(message)


def versions():
    from importlib.metadata import version

    return {name: version(name) for name in ("ipykernel", "jupyter_client")}


def main():
    ref = Reference()
    print(json.dumps(dict(versions(), ok=True, python=sys.version.split()[0])), flush=True)

    def on_term(signum, frame):
        ref.stop()
        sys.exit(1)

    signal.signal(signal.SIGTERM, on_term)
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            command = json.loads(line)
            cmd = command["cmd"]
            try:
                if cmd == "cold_start":
                    ready_ms, pid = ref.start()
                    try:
                        first_ms, reply = ref.timed(ROUND_TRIP)
                        expect(reply["status"] == "ok", "1+1 failed: %r" % reply)
                    finally:
                        ref.stop()
                    answer = {"ready_ms": ready_ms, "first_ms": first_ms, "pid": pid}
                elif cmd == "open":
                    ready_ms, pid = ref.start()
                    answer = {"ready_ms": ready_ms, "pid": pid}
                elif cmd == "round_trip":
                    answer = ref.round_trip(command["n"])
                elif cmd == "throughput":
                    answer = ref.throughput(command["lines"], command["width"])
                elif cmd == "input":
                    answer = ref.input(command["n"])
                elif cmd == "interrupt":
                    answer = ref.interrupt()
                elif cmd == "close":
                    ref.stop()
                    answer = {}
                else:
                    raise RuntimeError("unknown command %r" % cmd)
                answer["ok"] = True
            except Exception as exc:  # reported to the bench, which fails the section with it
                answer = {"ok": False, "error": "%s: %s" % (type(exc).__name__, exc)}
            print(json.dumps(answer), flush=True)
    finally:
        ref.stop()


if __name__ == "__main__":
    main()
