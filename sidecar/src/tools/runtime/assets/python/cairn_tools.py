"""cairn_tools: call Cairn's tools from a Python script.

Scripts started by Cairn's Bash or Exec tools, and cells an agent runs with execute_code in a local kernel,
can call the same tools the agent has, with the same approvals (in "ask" mode the user is asked) and the
same result files; their calls appear under the call that ran the script. Standard library only, Python 3.9+.

    import cairn_tools
    reply = cairn_tools.call("Read", {"path": "notes.txt"})
    if reply.is_error:
        print("failed:", reply.content)
    receipt = cairn_tools.call("Bash", {"command": "make test"}, is_wait=False)
    print(cairn_tools.status(receipt.call_id).status)
    print(cairn_tools.output(receipt.call_id).content)   # its newest output; after=N for the pieces after N
    cairn_tools.cancel(receipt.call_id)

call(name, arguments, method=None, union_id=None, is_wait=True); status(call_id); cancel(call_id);
output(call_id, after=None). Each has an async twin for asyncio (call_async, status_async, cancel_async,
output_async) that does not block the event loop; cancelling its task closes the request.

A reply is a dict whose keys also read as attributes: call_id, status, result_dir, content (the tool's
text; a receipt as JSON for a call left running with is_wait=False), is_error and meta. A denied or failed
call is a reply with is_error true. Only a failure to reach Cairn raises ToolRuntimeError: no endpoint or
token in the environment, a token refused (the call that ran the script has ended or was cancelled), the
endpoint not answering, a request over 8 MiB, a reply that is not JSON. Nothing is retried.

The endpoint and token come from CAIRN_TOOL_ENDPOINT (http://127.0.0.1:PORT or unix:PATH) and
CAIRN_TOOL_TOKEN, read at each call: in a kernel each agent cell has its own token, and a cell the user runs
has none. Kernels on a Jupyter Server get neither.

From a shell (Cairn's `cairn tool` runs this): python3 cairn_tools.py cli tool call NAME --json '{...}'
[--no-wait] [--method M] [--union-id U]; ... cli tool status CALL_ID; ... cli tool cancel CALL_ID;
... cli tool output CALL_ID [--after N]. It prints the reply as JSON; exit code 0 for a reply (read its
is_error), 1 when Cairn cannot be reached or the token is refused, 2 for bad usage.
"""
import argparse
import asyncio
import http.client
import json
import os
import socket
import sys
import threading
from urllib.parse import urlsplit

__all__ = ["Reply", "ToolRuntimeError", "call", "status", "cancel", "output",
           "call_async", "status_async", "cancel_async", "output_async"]

ENDPOINT_VARIABLE = "CAIRN_TOOL_ENDPOINT"
TOKEN_VARIABLE = "CAIRN_TOOL_TOKEN"
MESSAGE_LIMIT = 8 * 1024 * 1024  # the endpoint refuses anything larger (protocol/tool-runtime.ts)
CONNECT_TIMEOUT = 10.0  # only for connecting: a waited call lasts as long as its tool does


class ToolRuntimeError(Exception):
    """Cairn's tool runtime could not be reached or refused the token: no reply (the call may not have run)."""


class Reply(dict):
    """A reply of the tool runtime: a dict whose keys also read as attributes (reply.is_error, reply["content"])."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            keys = ", ".join(map(str, self))
            raise AttributeError("%r has no %r (keys: %s)" % (type(self).__name__, name, keys)) from None

    def __dir__(self):
        return list(super().__dir__()) + [key for key in self if isinstance(key, str)]

    def __repr__(self):
        return "Reply(%s)" % dict.__repr__(self)


# ---- the API ----

def call(name, arguments, method=None, union_id=None, is_wait=True):
    """Runs a tool and returns its Reply; with is_wait=False the receipt (call_id, status, result_dir) at once."""
    return _Request("call", _call_body(name, arguments, method, union_id, is_wait)).send()


def status(call_id):
    """The status of a call of this session (status, timings, exit code in meta)."""
    return _Request("status", {"call_id": _call_id(call_id)}).send()


def cancel(call_id):
    """Stops a call of this session; meta.cancelled says whether it still ran."""
    return _Request("cancel", {"call_id": _call_id(call_id)}).send()


def output(call_id, after=None):
    """A call's newest output text, or the text of the pieces after piece `after` (meta.next_after goes on)."""
    return _Request("output", _output_body(call_id, after)).send()


async def call_async(name, arguments, method=None, union_id=None, is_wait=True):
    return await _Request("call", _call_body(name, arguments, method, union_id, is_wait)).send_async()


async def status_async(call_id):
    return await _Request("status", {"call_id": _call_id(call_id)}).send_async()


async def cancel_async(call_id):
    return await _Request("cancel", {"call_id": _call_id(call_id)}).send_async()


async def output_async(call_id, after=None):
    return await _Request("output", _output_body(call_id, after)).send_async()


call_async.__doc__, status_async.__doc__ = call.__doc__, status.__doc__
cancel_async.__doc__, output_async.__doc__ = cancel.__doc__, output.__doc__


def _call_body(name, arguments, method, union_id, is_wait):
    if not isinstance(name, str) or not name:
        raise TypeError("name must be a tool's name, a non-empty str")
    if not isinstance(arguments, dict):
        raise TypeError("arguments must be a dict of the tool's inputs, not %s" % type(arguments).__name__)
    body = {"name": name, "arguments": arguments, "is_wait": bool(is_wait)}
    if method is not None:
        body["method"] = str(method)
    if union_id is not None:
        body["union_id"] = str(union_id)
    return body


def _call_id(call_id):
    if not isinstance(call_id, str) or not call_id:
        raise TypeError("call_id must be a call's id (a receipt's call_id), a non-empty str")
    return call_id


def _output_body(call_id, after):
    body = {"call_id": _call_id(call_id)}
    if after is not None:
        body["after"] = int(after)
    return body


# ---- the transport ----

class _Request:
    """One POST to the endpoint. Built where the call is made, so the environment of that moment is used
    (a kernel's token changes per cell) and an oversized request is refused before anything is sent."""

    def __init__(self, op, body):
        self.op = op
        self.endpoint = os.environ.get(ENDPOINT_VARIABLE, "").strip()
        self.token = os.environ.get(TOKEN_VARIABLE, "").strip()
        if not self.endpoint or not self.token:
            raise ToolRuntimeError(_missing_environment(self.endpoint, self.token))
        self.data = _encode(body)
        if len(self.data) > MESSAGE_LIMIT:
            raise ToolRuntimeError("The request is %d bytes, more than the 8 MiB the endpoint accepts; nothing was "
                                   "sent. Pass large content as a file (its path) instead." % len(self.data))
        self.connection = _connection(self.endpoint)
        self.aborted = False

    def send(self):
        """Sends the request and waits for the reply, for as long as the tool runs."""
        connection = self.connection
        try:
            try:
                connection.connect()
            except (socket.timeout, TimeoutError):
                raise ToolRuntimeError("Cairn's tool endpoint at %s did not accept the connection within %d s. Is "
                                       "Cairn still running?" % (self.endpoint, CONNECT_TIMEOUT)) from None
            except OSError as exc:
                raise ToolRuntimeError("Could not connect to Cairn's tool endpoint at %s (%s): Cairn has stopped "
                                       "or restarted since this process started. Run the script again from the "
                                       "agent." % (self.endpoint, _reason(exc))) from None
            if self.aborted:
                raise ToolRuntimeError("The request was cancelled before it was sent.")
            try:
                connection.request("POST", "/v1/" + self.op, body=self.data, headers={
                    "Authorization": "Bearer " + self.token,
                    "Content-Type": "application/json",
                    "Accept": "application/json",
                })
                response = connection.getresponse()
                text = response.read()
            except (OSError, http.client.HTTPException) as exc:
                if self.aborted:
                    raise ToolRuntimeError("The request was cancelled before its reply came.") from None
                raise ToolRuntimeError("The connection to Cairn's tool endpoint at %s broke before a reply came "
                                       "(%s); the call may have run: check with status() before calling again."
                                       % (self.endpoint, _reason(exc))) from None
        finally:
            connection.close()
        return _reply(response.status, text)

    async def send_async(self):
        """send() on a thread of its own (not a pool a few long calls could fill); cancelling the awaiting
        task closes the connection, which ends a waited call on Cairn's side."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def settle(value, error):
            if future.done():
                return
            if error is None:
                future.set_result(value)
            else:
                future.set_exception(error)

        def run():
            try:
                value, error = self.send(), None
            except BaseException as exc:  # handed to the awaiting task, whatever it is
                value, error = None, exc
            try:
                loop.call_soon_threadsafe(settle, value, error)
            except RuntimeError:  # the loop has closed: nobody is waiting
                pass

        threading.Thread(target=run, name="cairn-tools-" + self.op, daemon=True).start()
        try:
            return await future
        except asyncio.CancelledError:
            self.abort()
            raise

    def abort(self):
        self.aborted = True
        sock = self.connection.sock
        if sock is not None:
            try:  # shutdown, not close: it wakes the thread blocked reading the reply
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _reply(status_code, text):
    try:
        body = json.loads(text.decode("utf-8"))
    except ValueError:
        body = None
    if status_code == 200:
        if isinstance(body, dict):
            return Reply(body)
        raise ToolRuntimeError("Cairn's tool endpoint answered with something that is not a JSON reply: %r"
                               % text[:200])
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else text[:200].decode("utf-8", "replace")
    if status_code == 401:
        raise ToolRuntimeError("Cairn refused this process's token (401: %s) A token is valid only while the call "
                               "that ran this script runs, in its session: that call has ended or was cancelled. "
                               "In a kernel, only cells the agent runs have one." % message)
    if status_code == 413:
        raise ToolRuntimeError("Cairn refused the request as larger than 8 MiB (413: %s) Pass large content as a "
                               "file (its path) instead." % message)
    raise ToolRuntimeError("Cairn's tool endpoint answered HTTP %d: %s" % (status_code, message))


def _reason(exc):
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc) or type(exc).__name__


def _encode(body):
    """UTF-8 JSON; escaped where the text holds a lone surrogate, which UTF-8 cannot carry."""
    try:
        return json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(body, allow_nan=False).encode("ascii")


def _missing_environment(endpoint, token):
    if endpoint:
        return ("Cairn's tools are not reachable: %s is not set. In a kernel only the cells an agent runs with "
                "execute_code have a token (a cell you run yourself has none, nor does code still running after "
                "its cell ended)." % TOKEN_VARIABLE)
    missing = ENDPOINT_VARIABLE if token else "%s and %s" % (ENDPOINT_VARIABLE, TOKEN_VARIABLE)
    return ("Cairn's tools are not reachable: %s %s not set. This process was not started by Cairn's Bash or "
            "Exec tools or an agent's execute_code cell, which are given them (kernels on a Jupyter Server get "
            "no endpoint). Run the script with Bash or Exec, or call the tool from the agent."
            % (missing, "is" if token else "are"))


class _Connection(http.client.HTTPConnection):
    """HTTP/1.1 with a timeout for connecting only: after that, a read waits as long as the tool runs."""

    def connect(self):
        super().connect()
        self.sock.settimeout(None)


class _UnixConnection(_Connection):
    """The same over a Unix socket (`unix:PATH`), which a sandbox without network can still reach."""

    def __init__(self, socket_path):
        super().__init__("localhost", timeout=CONNECT_TIMEOUT)
        self.socket_path = socket_path

    def connect(self):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.timeout)
            sock.connect(self.socket_path)
            sock.settimeout(None)
        except BaseException:
            sock.close()
            raise
        self.sock = sock


def _connection(endpoint):
    if endpoint.startswith("unix:"):
        if not hasattr(socket, "AF_UNIX"):
            raise ToolRuntimeError("%s is a Unix socket (%s), which this system cannot open." % (ENDPOINT_VARIABLE,
                                                                                                  endpoint))
        return _UnixConnection(endpoint[len("unix:"):])
    parts = urlsplit(endpoint)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme != "http" or not parts.hostname or port is None:
        raise ToolRuntimeError("%s is %r, not http://HOST:PORT or unix:PATH. It is set by Cairn; do not change it."
                               % (ENDPOINT_VARIABLE, endpoint))
    return _Connection(parts.hostname, port, timeout=CONNECT_TIMEOUT)


# ---- the command line (`cairn tool …` inside Electron runs this) ----

def _parser():
    parser = argparse.ArgumentParser(prog="cairn tool", description="Call Cairn's tools from a shell script "
                                     "started by Cairn's Bash or Exec. Prints the reply as JSON.",
                                     epilog="Exit code: 0 for a reply (read its is_error), 1 when Cairn cannot be "
                                     "reached or refuses the token, 2 for bad usage.")
    commands = parser.add_subparsers(dest="command", metavar="{call,status,cancel,output}")
    commands.required = True
    run = commands.add_parser("call", help="run a tool")
    run.add_argument("name", help="the tool's name, e.g. Read")
    run.add_argument("--json", dest="arguments", default="{}", metavar="ARGS",
                     help="the tool's arguments as a JSON object (default {}); - reads them from stdin")
    run.add_argument("--no-wait", action="store_true", help="return the receipt at once; the call runs on")
    run.add_argument("--method", help="the method, for a tool with several")
    run.add_argument("--union-id", help="an id the method gets as given")
    for name, text in (("status", "a call's status"), ("cancel", "stop a call")):
        commands.add_parser(name, help=text).add_argument("call_id")
    read = commands.add_parser("output", help="a call's newest output, or the pieces after --after")
    read.add_argument("call_id")
    read.add_argument("--after", type=int, help="the piece number to read on from (meta.next_after)")
    return parser


def main(argv=None):
    """`cli tool call …` as the `cairn` shim passes it, or `call …` alone. Returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    for word in ("cli", "tool"):
        if args and args[0] == word:
            args.pop(0)
    parser = _parser()
    options = parser.parse_args(args)
    try:
        if options.command == "call":
            text = sys.stdin.read() if options.arguments == "-" else options.arguments
            try:
                arguments = json.loads(text)
            except ValueError as exc:
                parser.error("--json is not valid JSON (%s)" % exc)
            if not isinstance(arguments, dict):
                parser.error("--json must be a JSON object of the tool's arguments, e.g. '{\"path\": \"a.txt\"}'")
            reply = call(options.name, arguments, method=options.method, union_id=options.union_id,
                         is_wait=not options.no_wait)
        elif options.command == "output":
            reply = output(options.call_id, options.after)
        else:
            reply = (status if options.command == "status" else cancel)(options.call_id)
    except ToolRuntimeError as exc:
        sys.stderr.write("cairn tool: %s\n" % exc)
        return 1
    except (TypeError, ValueError) as exc:  # arguments JSON cannot carry (NaN), an empty name
        parser.error(str(exc))
    out = getattr(sys.stdout, "buffer", None)
    text = json.dumps(reply, ensure_ascii=False) + "\n"  # one line, as `cairn tool` prints it
    if out is None:
        sys.stdout.write(text)
    else:
        out.write(text.encode("utf-8"))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
