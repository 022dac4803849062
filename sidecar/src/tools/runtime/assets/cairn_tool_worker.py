"""Cairn's worker process for a Python tool loaded with LoadTool (stdlib only, Python 3.9+).

Cairn writes one JSON command per line to stdin, and the worker answers one JSON message per line on the
stdout it was started with (sidecar/src/tools/runtime/loaded/worker-protocol.ts). Before the tool's module
is imported, both are moved to private descriptors: fd 1 then points at stderr and fd 0 at the null device,
so print() and the programs a tool starts can neither corrupt the answers nor read the commands.

Each call runs in a thread of its own, so several calls can run at once; a cancelled call's context says so
(ctx.cancelled(), ctx.wait()) and a stream method's generator is closed at its next item.
"""

import asyncio
import importlib.util
import inspect
import json
import os
import signal
import sys
import threading
import traceback

TRACEBACK_LINES = 12
MODULE_NAME = "cairn_loaded_tool"


class Channel:
    """The command and answer streams, taken away from fds 0 and 1."""

    def __init__(self):
        self._commands = os.fdopen(os.dup(0), "rb")
        self._answers = os.fdopen(os.dup(1), "wb")
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
        sys.stdin = open(os.devnull)
        sys.stdout = sys.stderr
        self._lock = threading.Lock()

    def commands(self):
        for line in self._commands:
            line = line.strip()
            if not line:
                continue
            try:
                yield json.loads(line.decode("utf-8"))
            except ValueError:
                print("cairn_tool_worker: not a JSON line: %r" % line[:200], file=sys.stderr)

    def send(self, message):
        try:
            data = json.dumps(message, ensure_ascii=False, allow_nan=False, default=str)
        except (TypeError, ValueError):
            # A value JSON cannot carry (NaN, a cycle): send its text instead.
            message = dict(message, value=repr(message.get("value")))
            data = json.dumps(message, ensure_ascii=False, default=str)
        with self._lock:
            self._answers.write(data.encode("utf-8") + b"\n")
            self._answers.flush()


class CallContext:
    """What a method gets besides its arguments: the call's ids, and whether it was cancelled."""

    def __init__(self, call_id, union_id):
        self.call_id = call_id
        self.union_id = union_id
        self._cancelled = threading.Event()

    def cancelled(self):
        """True once Cairn cancelled the call: return (or stop yielding) soon."""
        return self._cancelled.is_set()

    def wait(self, seconds):
        """Sleeps up to `seconds`, waking early on cancellation; returns True when the call was cancelled."""
        return self._cancelled.wait(seconds)


class Worker:
    def __init__(self, channel):
        self.channel = channel
        self.tool = None
        self.calls = {}

    def handle(self, message):
        kind = message.get("type")
        if kind == "load":
            self.load(message)
        elif kind == "call":
            ctx = CallContext(message.get("call_id"), message.get("union_id"))
            # Registered before the thread starts, so a cancel that follows at once finds it.
            self.calls[message.get("id")] = ctx
            threading.Thread(target=self.call, args=(message, ctx), daemon=True).start()
        elif kind == "cancel":
            ctx = self.calls.get(message.get("id"))
            if ctx is not None:
                ctx._cancelled.set()
        elif kind == "stop":
            self.stop()

    def load(self, message):
        path = message.get("file")
        factory_name = message.get("factory") or "create_tool"
        try:
            module = import_file(path)
        except BaseException:
            return self.load_error("importing %s failed:\n%s" % (os.path.basename(path), traceback_text()))
        factory = getattr(module, factory_name, None)
        if not callable(factory):
            names = ", ".join(n for n in vars(module) if not n.startswith("_")) or "nothing"
            return self.load_error(
                "the module has no function %r (the function that returns the tool); it defines: %s"
                % (factory_name, names)
            )
        try:
            made = factory(message.get("config") or {})
        except BaseException:
            return self.load_error("%s(config) raised:\n%s" % (factory_name, traceback_text()))
        if not isinstance(made, dict):
            return self.load_error(
                "%s(config) must return a dict with name, description and methods; it returned %s"
                % (factory_name, type(made).__name__)
            )
        methods = made.get("methods")
        if not isinstance(methods, dict):
            return self.load_error(
                'the tool\'s "methods" must be a dict mapping each method\'s name to '
                '{"kind", "description", "run"}; it is %s' % type(methods).__name__
            )
        self.tool = made
        self.channel.send({"type": "loaded", "tool": describe(made, methods)})

    def load_error(self, text):
        self.channel.send({"type": "load_error", "message": text})

    def call(self, message, ctx):
        call_id = message.get("id")
        try:
            spec = self.tool["methods"].get(message.get("method")) if self.tool else None
            if not isinstance(spec, dict) or not callable(spec.get("run")):
                raise LookupError("the tool has no method %r" % message.get("method"))
            produced = spec["run"](message.get("arguments") or {}, ctx)
            if spec.get("kind") == "stream":
                value = self.stream(call_id, produced, ctx)
            else:
                value = asyncio.run(produced) if inspect.iscoroutine(produced) else produced
            self.done(call_id, value, None, ctx.cancelled())
        except BaseException:
            # A method that notices the cancellation may end by raising: that is a cancelled call too.
            cancelled = ctx.cancelled()
            self.done(call_id, None, None if cancelled else traceback_text(), cancelled)
        finally:
            self.calls.pop(call_id, None)

    def stream(self, call_id, produced, ctx):
        """Sends each item as it comes; on cancel closes the generator (its finally runs) and stops."""
        if isinstance(produced, (str, bytes, dict)) or not hasattr(produced, "__iter__"):
            raise TypeError("a stream method must be a generator function (use yield)")
        iterator = iter(produced)
        while True:
            if ctx.cancelled():
                close = getattr(iterator, "close", None)
                if close is not None:
                    close()
                return None
            try:
                item = next(iterator)
            except StopIteration as end:
                return end.value
            if not ctx.cancelled():
                self.channel.send({"type": "item", "id": call_id, "text": item_text(item)})

    def done(self, call_id, value, error, cancelled):
        self.channel.send({"type": "done", "id": call_id, "value": value, "error": error, "cancelled": cancelled})

    def stop(self):
        for ctx in list(self.calls.values()):
            ctx._cancelled.set()
        close = self.tool.get("close") if isinstance(self.tool, dict) else None
        if callable(close):
            try:
                close()
            except BaseException:
                traceback.print_exc()
        self.channel.send({"type": "closed"})


def import_file(path):
    # Its folder first on sys.path, as when it is run as a script: it can import the modules beside it.
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(MODULE_NAME, path)
    if spec is None or spec.loader is None:
        raise ImportError("cannot import %s as a Python module" % path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE_NAME] = module
    spec.loader.exec_module(module)
    return module


def describe(made, methods):
    def text(value):
        return value if isinstance(value, str) else None

    described = []
    for name, spec in methods.items():
        spec = spec if isinstance(spec, dict) else {}
        described.append(
            {
                "name": str(name),
                "kind": text(spec.get("kind")),
                "description": text(spec.get("description")),
                "input_schema": spec.get("input_schema"),
                "runnable": callable(spec.get("run")),
            }
        )
    return {"name": text(made.get("name")), "description": text(made.get("description")), "methods": described}


def item_text(item):
    if isinstance(item, str):
        return item
    if isinstance(item, bytes):
        return item.decode("utf-8", "replace")
    if item is None:
        return ""
    return json.dumps(item, ensure_ascii=False, default=str)


def traceback_text():
    lines = traceback.format_exc().rstrip().splitlines()
    return "\n".join(lines[-TRACEBACK_LINES:])


def main():
    channel = Channel()
    # Importing the tool must not leave __pycache__ folders in the project.
    sys.dont_write_bytecode = True
    worker = Worker(channel)
    for message in channel.commands():
        worker.handle(message)
    # Cairn closed stdin (it stopped the tool, or ended or crashed): running calls must not keep the process
    # alive, nor the programs the tool started, when the worker leads their process group.
    if hasattr(os, "killpg") and os.getpgrp() == os.getpid():
        os.killpg(os.getpgrp(), signal.SIGKILL)
    os._exit(0)


if __name__ == "__main__":
    main()
