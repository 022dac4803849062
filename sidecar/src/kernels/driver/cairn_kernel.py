"""Cairn kernel driver: runs Python cells for Cairn's sidecar in one persistent namespace.

Protocol (v2): JSON lines, one object per line, on this process's ORIGINAL stdin (host -> driver:
execute, input_reply, reset, list_variables, interrupt, shutdown) and ORIGINAL stdout (driver -> host:
ready, stream, display, input_request, result, reset_done, variables, log). One exception: a `stream`
message is a header line `{"type":"stream","id":...,"name":"stdout"|"stderr","bytes":N}` followed at once
by its text as N raw UTF-8 bytes (newlines included, no escaping, no trailing newline; always whole
characters), then the next line. The sidecar's TypeScript client (driver-messages.ts, kernel-process.ts,
line-framer.ts) is the other end; the message shapes are fixed by that contract, and the host refuses a
driver whose `ready` names another protocol version. On EOF on stdin (the host closed the channel, or died)
the driver kills its process group (when it leads one, as the host starts it) and exits. An `execute` may
carry `tool_token`: CAIRN_TOOL_TOKEN for that cell alone (Cairn's tool client reads it), removed after.
A kernel started with CAIRN_TOOL_ENDPOINT (one of a Cairn session) has `runtime` (cairn_runtime.Runtime, beside
cairn_tools on PYTHONPATH) in its namespace: not listed by list_variables, put back by reset.

Why capture output at the file-descriptor level: code writes by many routes - print(), os.write(1, ...),
C extensions calling printf, child processes that inherit fd 1 and 2. Swapping sys.stdout catches only
the first, and anything else written to the real stdout would corrupt the JSON channel. So, before any
user code runs, the channel moves to private (non-inheritable) copies of fd 0/1, fd 1 and 2 become pipes
whose reader threads forward what arrives as `stream` messages, and fd 0 becomes /dev/null (input() and
getpass() ask the host instead).

Batching: stream text is gathered and sent as few `stream` messages (StreamBuffer): once FLUSH_CHARS
have gathered, within FLUSH_SECONDS by a flusher thread (so output stays live), and always before any
other message. On POSIX a Python-level write skips the pipe when nothing written by another route is still
in it: the text joins the same ordered buffer directly, with no system call and no thread hand-over. Routes
Python can see (os.write/dup2/close on fd 1/2, child processes, sys.stdout.buffer) mark the fd "dirty"
(once ctypes has looked up a C function, which may be called at any time unseen, it stays so), and the
next Python-level write to it checks the pipe (empty, nothing held back) first, going through the pipe
when it is not. fd-level writes Python cannot see (an extension's own printf) mark it only
once the reader has seen them, so those alone may come after a print written just after them.

Order: all output of an execution is sent before its result (sync tokens written through each pipe mark
what has been forwarded). Across stdout and stderr: a Python-level write (print, sys.stdout/stderr.write)
to one stream is forwarded after everything written before it to the other stream, by any route, when it
is the cell's first Python-level write or the previous one went to the other stream; so Python-level
writes keep their exact order. fd-level writes alone (os.write, C code, child processes) to both streams
have no order across the two: two pipes read by two threads. Within one stream, order is always exact.
A cell that closes or redirects fd 1/2 gets them pointed back at the pipes when it ends (with a note on
stderr), so sync tokens never land in the user's file; a drain whose token never arrives gives up after a
few seconds without output, with a warning, instead of hanging the kernel.

Threads: the main thread runs cells, so SIGINT's KeyboardInterrupt lands in user code; a control thread
reads the channel while a cell runs (input replies, interrupt, shutdown); one reader thread per capture
pipe; one writer thread owns the channel's output, so an interrupt can never cut a message in half.

Python 3.9+, standard library only; IPython's InteractiveShell is used when importable (magics, !shell)
unless --no-ipython is given.
"""
import _thread, ast, base64, builtins, codecs, faulthandler, importlib.util, io, json  # noqa: E401
import linecache, os, queue, re, reprlib, signal, sys, threading, time, traceback, types  # noqa: E401

try:  # POSIX: Python-level writes may skip the capture pipes (see StreamBuffer)
    import fcntl, select, termios  # noqa: E401
except ImportError:  # Windows: every write goes through the pipes
    fcntl = None

PROTOCOL = 2
CHUNK = 65536
BATCH_BYTES = 4 * 1024 * 1024  # the most the channel queues before senders wait for the host to read
# Written into a capture pipe to learn when everything before it has been forwarded. Random per process
# so user output cannot contain it by accident; it starts with NUL so partial matches are rare.
SYNC_TOKEN = b"\x00\x1bcairn-sync-" + os.urandom(6).hex().encode() + b"\x00"
DRIVER_FILE = os.path.normcase(os.path.abspath(__file__))
IPYTHON_NAMES = frozenset({"In", "Out", "exit", "quit", "get_ipython"})
RICH_FORMS = (("image/png", "_repr_png_"), ("text/html", "_repr_html_"), ("text/markdown", "_repr_markdown_"))
MIME_TYPES = frozenset({"text/plain"} | {mime for mime, _ in RICH_FORMS})
REPR_LIMIT = 200
# Caps on what one message carries, so a huge value or a runaway loop cannot flood the host.
TEXT_LIMIT = 1024 * 1024  # text/plain of a value or display, in characters
ERROR_TEXT_LIMIT = 10 * 1024  # an error's message and snippet, an input prompt
DISPLAY_LIMIT = 20 * 1024 * 1024  # one display (all its forms together)
DISPLAYS_PER_CELL = 50
# How long a drain waits with no output arriving before it gives up on a sync token (fd 1/2 lost).
SYNC_STALL_SECONDS = 3.0
# Audit events after which a child process or C code may write to fd 1/2 behind Python's back.
CHILD_EVENTS = frozenset({"os.system", "subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn",
                          "os.exec", "ctypes.call_function", "pty.spawn"})
# Audit events that hand Python a C function: calling one raises no event of its own (ctypes.call_function
# is only for _ctypes.call_function), and it may be called at any time after, so from then on every
# Python-level write checks the pipes.
FOREIGN_FUNCTION_EVENTS = frozenset({"ctypes.dlsym", "ctypes.dlsym/handle"})
# Stream text is sent once this much has gathered, or this long after the first of it (output stays live).
# Kept under 128 KiB with its header: bigger buffers come from fresh mmap'd memory on both ends (glibc's
# threshold here, V8's large-object space in the host), which made 256 KiB messages twice as slow in all.
FLUSH_CHARS = 60 * 1024
FLUSH_SECONDS = 0.01
RAW_WRITE = os.write  # os.write itself gets wrapped (OutputCapture.watch_other_routes)
TOOL_TOKEN_VARIABLE = "CAIRN_TOOL_TOKEN"  # an execute message's tool_token, for that cell only
TOOL_ENDPOINT_VARIABLE = "CAIRN_TOOL_ENDPOINT"  # given to kernels of a Cairn session only
RUNTIME_NAME = "runtime"  # the agent's cairn_runtime.Runtime in the namespace
CO_COROUTINE = 0x80  # inspect.CO_COROUTINE, without importing inspect
_short = reprlib.Repr()
_short.maxstring = _short.maxother = REPR_LIMIT


def _widen_send_buffer(fd):
    """Node gives a child's stdio as a socket pair: a larger send buffer means fewer hand-offs per MiB."""
    import socket
    try:
        sock = socket.socket(fileno=os.dup(fd))
    except OSError:  # a plain pipe (another host): nothing to widen
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, BATCH_BYTES)
    except OSError:
        pass
    finally:
        sock.close()  # only the duplicate; the option stays with the socket


class Channel:
    """The JSON-lines channel to the host, on private copies of the original stdin/stdout.

    Whoever sends writes what the channel takes without blocking, there and then; what is left waits for the
    writer thread, which blocks until the host reads. So a busy cell's output does not wait for the writer
    thread to win the GIL, and the cell never waits on a slow host for more than the queue's bound. Messages
    go out whole, in the order sent.
    """

    def __init__(self):
        # os.dup gives non-inheritable fds (PEP 446): child processes never see the channel.
        self.in_fd, self.out_fd = os.dup(0), os.dup(1)
        self.state = threading.Condition()
        self.queued, self.queued_bytes = [], 0
        self.writing = False  # someone is writing to out_fd
        self.poller = None
        if fcntl is not None:  # POSIX; elsewhere only the writer thread writes, blocking
            os.set_blocking(self.out_fd, False)
            _widen_send_buffer(self.out_fd)
            self.poller = select.poll()
            self.poller.register(self.out_fd, select.POLLOUT)
        threading.Thread(target=self._write_loop, name="cairn-writer", daemon=True).start()

    def close_in_fork(self):
        """In a forked child (multiprocessing): the channel is the parent's alone."""
        os.close(self.in_fd)
        os.close(self.out_fd)
        self.send = self.send_bytes = lambda *args: None

    def send(self, message):
        self.send_bytes(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def send_stream(self, exec_id, name, text):
        """A `stream` message: a header line announcing `bytes`, then the text's UTF-8 bytes as they are.

        Output is most of the traffic: raw bytes need no escaping here and no JSON.parse in the host. A whole
        str is encoded, so the bytes always end on a character boundary (a lone surrogate becomes `\\udc80`).
        """
        data = text.encode("utf-8", "backslashreplace")
        self.send_bytes(b'{"type":"stream","id":%s,"name":"%s","bytes":%d}\n%s' % (
            json.dumps(exec_id).encode(), name.encode(), len(data), data))

    def send_bytes(self, data):
        with self.state:
            # Bounded, so a host that reads slowly slows the producers instead of filling memory.
            while self.queued_bytes > BATCH_BYTES:
                self.state.wait()
            self.queued.append(data)
            self.queued_bytes += len(data)
            if self.writing or self.poller is None:
                self.state.notify_all()
                return
            batch, self.writing = self._take(), True
        # An interrupt must not land between a partial write and queueing the rest: SIGINT waits meanwhile.
        main = threading.current_thread() is threading.main_thread()
        blocked = main and signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        rest = batch
        try:
            rest = self._write_some(batch)
        finally:
            with self.state:
                if rest:
                    self.queued.insert(0, rest)
                    self.queued_bytes += len(rest)
                self.writing = False
                self.state.notify_all()
            if main:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def _take(self):
        """Under the lock: everything queued, as one buffer."""
        batch, self.queued, self.queued_bytes = self.queued, [], 0
        return b"".join(batch) if len(batch) > 1 else batch[0]

    def _write_some(self, data):
        """Writes what the channel takes now; returns the rest (empty when all went)."""
        data = memoryview(data)
        try:
            while data:
                data = data[RAW_WRITE(self.out_fd, data):]
        except BlockingIOError:
            pass
        except OSError:  # the host has gone: nobody is left to report to
            exit_with_group()
        return data

    def _write_loop(self):
        while True:
            with self.state:
                while self.writing or not self.queued:
                    self.state.wait()
                data, self.writing = self._take(), True
                self.state.notify_all()
            try:
                while True:
                    data = self._write_some(data)
                    if not data:
                        break
                    self.poller.poll()  # until the host has read some
            finally:
                with self.state:
                    self.writing = False
                    self.state.notify_all()

    def requests(self, log):
        """Yields the host's messages; returns at EOF."""
        with open(self.in_fd, "rb", closefd=False) as reader:
            for line in reader:
                try:
                    message = json.loads(line)
                except ValueError:
                    log("warning", "ignored a line that is not JSON: %r" % line[:200])
                    continue
                if isinstance(message, dict):
                    yield message


class StreamBuffer:
    """Stream text on its way to the channel, in the order it was written, sent as few `stream` messages.

    Sent when FLUSH_CHARS have gathered, by a thread FLUSH_SECONDS after the first unsent text, and before
    any other message (Kernel.send). One lock orders everything: appends from the pipe readers and from
    Python-level writes, and the sending itself.
    """

    def __init__(self, channel):
        self.channel = channel
        self.lock = threading.RLock()  # reentrant: a signal handler in a cell may print mid-append
        self.runs = []  # [exec_id, name, [texts]]: consecutive text of one stream for one execution
        self.size = 0
        self.exec_id = None  # the execution text goes with: the latest one (Kernel.execute sets it)
        self.tail = self.tail_name = self.tail_id = None  # the last run's texts, and what they belong to
        self.wake = threading.Event()
        self.forked = False  # a forked child never sends: the channel is the parent's
        threading.Thread(target=self._flush_loop, name="cairn-flusher", daemon=True).start()

    def append(self, name, text):
        with self.lock:
            if self.tail_name is name and self.tail_id is self.exec_id:
                self.tail.append(text)
            else:
                self.tail, self.tail_name, self.tail_id = [text], name, self.exec_id
                self.runs.append((self.exec_id, name, self.tail))
                self.wake.set()
            self.size += len(text)
            if self.size >= FLUSH_CHARS:
                self.flush()

    def flush(self):
        if self.forked:  # its lock may have been held by another thread at fork: never touch it
            return
        with self.lock:
            runs, self.runs, self.size = self.runs, [], 0
            self.tail = self.tail_name = self.tail_id = None
            for exec_id, name, texts in runs:
                text = "".join(texts)
                for start in range(0, len(text), FLUSH_CHARS):
                    self.channel.send_stream(exec_id, name, text[start:start + FLUSH_CHARS])

    def _flush_loop(self):
        while True:
            self.wake.wait()
            time.sleep(FLUSH_SECONDS)
            self.wake.clear()  # before the flush: text appended after it sets it again
            self.flush()


class CapturedFd:
    """fd 1 or 2 redirected into a pipe; a thread forwards what arrives, as it arrives.

    With a lock (POSIX), the reader waits for data outside it and reads and forwards under it, so under the
    lock "the pipe is empty and nothing is held back" means everything written to it so far is forwarded.
    """

    def __init__(self, fd, name, on_text, lock=None):
        self.fd, self.name, self.on_text, self.lock = fd, name, on_text, lock
        self.held = b""  # the end of a read that may be the start of a sync token
        # Set after anything may have written to the fd other than the Python-level fast path (see
        # OutputCapture.direct); cleared by a check that finds everything forwarded.
        self.dirty = True
        self.read_fd, write_fd = os.pipe()
        os.dup2(write_fd, fd)  # inheritable, so child processes write into the pipe too
        # A private (non-inheritable) copy of the write end: a cell may close or redirect fd 1/2, and
        # the sync tokens must never go anywhere but the pipe.
        self.spare_fd = os.dup(write_fd)
        os.close(write_fd)
        self.identity = file_identity(self.spare_fd)
        self.progress = 0  # reads so far: a drain waits as long as output keeps arriving
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")  # keeps split characters for later
        self.synced = threading.Condition()
        self.write_lock = threading.Lock()
        self.tokens_written = self.tokens_seen = 0
        self.text = None  # the CellStream over this fd
        threading.Thread(target=self._read_loop, name="cairn-" + name, daemon=True).start()

    def _read_loop(self):
        poller = None
        if self.lock is not None:
            poller = select.poll()
            poller.register(self.read_fd, select.POLLIN)
        while True:
            try:
                if poller is None:
                    more = self._read_once()
                else:
                    poller.poll()
                    with self.lock:
                        more = self._read_once()
            except OSError:
                return
            if not more:
                return

    def _read_once(self):
        data = os.read(self.read_fd, CHUNK)
        if not data:
            return False
        self.progress += 1
        self.dirty = True  # a writer Python did not see (C code, a background child) may still be writing
        self.held = self._forward(self.held + data)
        return True

    def settled(self):
        """Under the lock: whether everything written to the pipe so far has been forwarded."""
        try:
            waiting = fcntl.ioctl(self.read_fd, termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return False
        return not self.held and not any(waiting) and self.is_pipe()

    def _forward(self, buffer):
        """Emits the text, counting (and dropping) sync tokens; returns a possible partial token."""
        while True:
            index = buffer.find(SYNC_TOKEN)
            if index < 0:
                break
            self._emit(buffer[:index])
            buffer = buffer[index + len(SYNC_TOKEN):]
            with self.synced:
                self.tokens_seen += 1
                self.synced.notify_all()
        keep = partial_token_length(buffer)
        self._emit(buffer[: len(buffer) - keep])
        return buffer[len(buffer) - keep:]

    def _emit(self, data):
        text = self.decoder.decode(data) if data else ""
        if text:
            self.on_text(self.name, text)

    def is_pipe(self):
        """Whether fd 1/2 still points at this capture pipe (a cell may have closed or redirected it)."""
        try:
            return file_identity(self.fd) == self.identity
        except OSError:
            return False

    def restore(self):
        """Points the fd back at the pipe if a cell moved it; returns whether it had to."""
        if self.is_pipe():
            return False
        os.dup2(self.spare_fd, self.fd)
        return True

    def start_sync(self):
        """Writes a sync token; returns the count to wait for, or None if the fd is not the pipe."""
        try:
            with self.write_lock:
                if not self.is_pipe():  # the token would land in the user's file, or nowhere
                    return None
                RAW_WRITE(self.fd, SYNC_TOKEN)
                self.tokens_written += 1
                return self.tokens_written
        except OSError:
            return None

    def wait_sync(self, target):
        """Waits for the token; returns False if output stopped arriving before it (it never will)."""
        with self.synced:
            progress, deadline = self.progress, time.monotonic() + SYNC_STALL_SECONDS
            while target is not None and self.tokens_seen < target:
                if self.progress != progress:  # still forwarding (a slow host, lots of output)
                    progress, deadline = self.progress, time.monotonic() + SYNC_STALL_SECONDS
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self.synced.wait(min(remaining, 0.25))
        return True


def file_identity(fd):
    status = os.fstat(fd)
    return status.st_dev, status.st_ino


def partial_token_length(buffer):
    """How many bytes at the end of buffer could be the start of a sync token split across reads."""
    tail = buffer[-(len(SYNC_TOKEN) - 1):]
    if SYNC_TOKEN[:1] in tail:
        for length in range(len(tail), 0, -1):
            if buffer.endswith(SYNC_TOKEN[:length]):
                return length
    return 0


class CellStream(io.TextIOWrapper):
    """sys.stdout / sys.stderr: line-buffered text over fd 1/2 that keeps the order across the two.

    Partial lines are flushed by OutputCapture.flush_loop within ~50 ms while a cell runs.

    Before a Python-level write goes to a different stream than the previous one (or is the cell's first),
    everything already written to the other stream, by any route, is forwarded first.
    """

    def __init__(self, captured, capture):
        super().__init__(CellBuffer(captured), encoding="utf-8", errors="backslashreplace", line_buffering=True)
        self._captured, self._capture = captured, capture

    def write(self, text):
        capture = self._capture
        if capture.last_writer is not self:
            capture.switch_to(self)
        captured = self._captured
        if not captured.dirty and type(text) is str and text.isascii():  # the common case, kept short
            streams = capture.streams
            with streams.lock:  # StreamBuffer.append, inlined: this runs twice per print
                if streams.tail_name is captured.name and streams.tail_id is streams.exec_id:
                    streams.tail.append(text)
                    streams.size += len(text)
                    if streams.size >= FLUSH_CHARS:
                        streams.flush()
                else:
                    streams.append(captured.name, text)
            return len(text)
        if capture.direct(self, text):
            return len(text)
        return super().write(text)


class CellBuffer(io.BufferedWriter):
    """sys.stdout.buffer: bytes written here reach the fd through the pipe, so they mark it dirty."""

    def __init__(self, captured):
        super().__init__(io.FileIO(captured.fd, "wb", closefd=False))
        self._captured = captured

    def write(self, data):
        try:
            return super().write(data)
        finally:
            self._captured.dirty = True


class OutputCapture:
    """Both captured fds, the Python-level streams over them, and the ordering between them."""

    def __init__(self, on_text, log, streams=None):
        self.log, self.on_text = log, on_text
        # None: every write goes through the pipes (Windows, where the pipes cannot be checked)
        self.streams = streams if fcntl is not None else None
        self.lock = self.streams and self.streams.lock
        self.out = CapturedFd(1, "stdout", on_text, self.lock)
        self.err = CapturedFd(2, "stderr", on_text, self.lock)
        self.out.text, self.err.text = CellStream(self.out, self), CellStream(self.err, self)
        self.last_writer = None
        self.forked = False  # a forked child has no reader threads to wait for
        self.foreign_functions = False  # C functions reachable from Python (FOREIGN_FUNCTION_EVENTS)
        if self.lock is not None:
            self.watch_other_routes()

    def watch_other_routes(self):
        """Marks fd 1/2 dirty after writes Python can see that do not go through sys.stdout/sys.stderr."""
        fds = {1: self.out, 2: self.err}

        def on_audit(event, args):
            if event in CHILD_EVENTS:  # a child (or C code) may write to both, now or later
                self.out.dirty = self.err.dirty = True
            elif event in FOREIGN_FUNCTION_EVENTS:
                self.foreign_functions = self.out.dirty = self.err.dirty = True

        sys.addaudithook(on_audit)

        def marking(function, all_fds=False):
            def wrapper(*args, **kwargs):
                try:
                    return function(*args, **kwargs)
                finally:  # after: by then what it wrote is in the pipe, where the check finds it
                    if all_fds:
                        self.out.dirty = self.err.dirty = True
                    elif args and args[0] in fds:
                        fds[args[0]].dirty = True
            for attribute in ("__name__", "__qualname__", "__doc__"):
                setattr(wrapper, attribute, getattr(function, attribute, None))
            wrapper.__module__ = "os"
            wrapper.__wrapped__ = function
            return wrapper

        for name in ("write", "writev", "pwrite", "sendfile", "close"):
            if hasattr(os, name):
                setattr(os, name, marking(getattr(os, name)))
        os.dup2 = marking(os.dup2, all_fds=True)  # its target is the second argument
        os.closerange = marking(os.closerange, all_fds=True)

    def direct(self, stream, text):
        """A Python-level write, straight into the ordered buffer when nothing written by another route
        is still on its way through the pipe; returns False when it must go through the pipe instead."""
        if self.streams is None or self.forked or self.streams.exec_id is None or type(text) is not str:
            return False
        if not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # lone surrogates: the stream's error handler decides
                return False
        captured = stream._captured
        if captured.dirty:
            # before the check: a mark made meanwhile stays for the next write
            captured.dirty = self.foreign_functions
            io.TextIOWrapper.flush(stream)  # outside the lock: the pipe's reader may need it to make room
            with self.lock:
                if not captured.settled():
                    captured.dirty = True
                    return False
                if text:
                    self.on_text(captured.name, text)
            return True
        if text:
            with self.lock:
                self.on_text(captured.name, text)
        return True

    def settled(self, fd):
        if self.lock is None:
            return False
        with self.lock:
            return fd.settled()

    def switch_to(self, stream):
        if self.forked:
            return
        other = self.err if stream is self.out.text else self.out
        try:
            other.text.flush()
        except Exception:  # fd closed by the cell: the write itself will say so
            pass
        if not self.settled(other):
            self.wait(other, other.start_sync())
        self.last_writer = stream

    def flush_loop(self, cell_running):
        """Thread: text written without a newline still reaches the host within ~50 ms while a cell runs."""
        while cell_running.wait():
            time.sleep(0.05)
            for stream in (self.out.text, self.err.text):
                try:
                    stream.flush()
                except Exception:
                    pass

    def drain(self, restore=False):
        """Blocks until everything written so far to fd 1 and 2 has been handed to the channel.

        restore (at the end of a cell): first point fd 1/2 back at the pipes if the cell closed or
        redirected them. Mid-cell (input, display) a redirect is the cell's business and is left alone.
        """
        for stream in (sys.stdout, sys.stderr, self.out.text, self.err.text):
            try:
                stream.flush()
            except Exception:
                pass
        if self.forked:
            return
        if restore:
            moved = [fd.fd for fd in (self.out, self.err) if fd.restore()]
            if moved:
                note = ("[Cairn: the cell closed or redirected fd %s; it now points at the kernel's output "
                        "again]\n" % " and ".join(str(fd) for fd in moved))
                self.write_fd(self.err.fd, note.encode())
        targets = [(fd, fd.start_sync()) for fd in (self.out, self.err) if not self.settled(fd)]
        for fd, target in targets:
            self.wait(fd, target)

    def wait(self, fd, target):
        if not fd.wait_sync(target):
            self.log("warning", "%s output did not arrive within %g s; the result may come before some of it"
                     % (fd.name, SYNC_STALL_SECONDS))

    @staticmethod
    def write_fd(fd, data):
        try:
            while data:
                data = data[os.write(fd, data):]
        except OSError:
            pass


def mime_bundle(value, plain_text=repr):
    """text/plain plus the rich forms the object offers (_repr_png_, _repr_html_, _repr_markdown_)."""
    data = {"text/plain": safe_call(plain_text, value)}
    for mime, attribute in RICH_FORMS if not isinstance(value, type) else ():  # a class has unbound ones
        method = getattr(value, attribute, None)
        try:
            form = method() if callable(method) else None
        except Exception:
            continue
        data[mime] = form[0] if isinstance(form, tuple) else form  # (data, metadata)
    return clean_bundle(data)


def clean_bundle(data):
    """Keeps the MIME types the protocol knows; PNG as base64 text; within the size caps."""
    bundle = {}
    for mime, form in data.items():
        if mime == "image/png" and isinstance(form, (bytes, bytearray)):
            form = base64.b64encode(form).decode("ascii")
        if mime in MIME_TYPES and isinstance(form, str):
            bundle[mime] = form
    if "text/plain" in bundle:
        bundle["text/plain"] = clip(bundle["text/plain"], TEXT_LIMIT)
    dropped = []
    while sum(len(form) for form in bundle.values()) > DISPLAY_LIMIT:
        mime = max((m for m in bundle if m != "text/plain"), key=lambda m: len(bundle[m]), default=None)
        if mime is None:
            break
        dropped.append("%s (%d MB)" % (mime, len(bundle.pop(mime)) // (1024 * 1024)))
    if dropped:
        bundle["text/plain"] = bundle.get("text/plain", "") + "\n[Cairn: not shown, over the %d MB limit: %s]" % (
            DISPLAY_LIMIT // (1024 * 1024), ", ".join(dropped))
    return bundle


def clip(text, limit):
    """text, cut to limit characters with a note that says so."""
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + "\n[Cairn: truncated; showing %d of %d characters]" % (limit, len(text))


def safe_call(function, value):
    try:
        return function(value)
    except Exception as exc:
        return "<%s failed: %s: %s>" % (getattr(function, "__name__", "repr"), type(exc).__name__, exc)


def short_repr(value):
    text = safe_call(_short.repr, value)
    return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 1] + "\u2026"


class PlainExecutor:
    """Runs cells with compile/eval in a fresh __main__ module: the standard-library kernel."""

    ipython = False

    def __init__(self, kernel):
        self.module = types.ModuleType("__main__")
        self.namespace = self.module.__dict__
        self.namespace["__builtins__"] = builtins
        sys.modules["__main__"] = self.module  # pickle and multiprocessing look user classes up here
        builtins.display = kernel.display  # as IPython offers it
        self.cells = {}  # cell file name -> execution number
        self.current = 0
        self.loop = None
        self.kept = {}  # names the driver gives the namespace (runtime): hidden, and back after a reset

    def keep(self, name, value):
        self.kept[name] = self.namespace[name] = value

    def hidden_names(self):
        return frozenset(self.kept)

    def cell_number(self, filename):
        return self.cells.get(filename)

    def run(self, code):
        self.current += 1
        filename = "<cell-%d>" % self.current
        self.cells[filename] = self.current
        # mtime None keeps the entry through linecache.checkcache, so tracebacks can quote the cell.
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        tree = ast.parse(code, filename)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        self._eval(tree, filename, "exec")
        value = self._eval(ast.Expression(last.value), filename, "eval") if last else None
        if value is None or code.rstrip().endswith(";"):  # a trailing ';' hides the value, as in IPython
            return None
        self.namespace["_"] = value
        return value

    def _eval(self, tree, filename, mode):
        flags = getattr(ast, "PyCF_ALLOW_TOP_LEVEL_AWAIT", 0)
        code = compile(tree, filename, mode, flags=flags, dont_inherit=True)
        value = eval(code, self.namespace)
        if code.co_flags & CO_COROUTINE:  # top-level await: run it on the kernel's own event loop
            import asyncio

            self.loop = self.loop or asyncio.new_event_loop()
            value = self.loop.run_until_complete(value)
        return value

    def plain_text(self, value):
        return repr(value)

    def reset(self):
        for name in list(self.namespace):
            if name not in ("__name__", "__builtins__"):
                del self.namespace[name]
        self.namespace.update(self.kept)


def make_ipython_executor(kernel):
    """An IPython InteractiveShell that prints nothing itself: values, displays and errors go to the host."""
    from IPython.core.displayhook import DisplayHook
    from IPython.core.displaypub import DisplayPublisher
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets import Type
    from traitlets.config import Config

    class SilentDisplayHook(DisplayHook):  # keeps Out, _ and the result; prints nothing
        def compute_format_data(self, result):
            return {}, {}

        write_output_prompt = finish_displayhook = lambda self: None  # noqa: E731

    class ChannelPublisher(DisplayPublisher):  # display(...) -> `display` messages
        def publish(self, data, metadata=None, *args, **kwargs):
            kernel.send_display(data)

        clear_output = lambda self, wait=False: None  # noqa: E731

    kept = {}  # names the driver gives the namespace (runtime): hidden, and back after any reset

    class CairnShell(InteractiveShell):
        displayhook_class = Type(SilentDisplayHook)
        display_pub_class = Type(ChannelPublisher)

        def reset(self, *args, **kwargs):  # reset_repl, and %reset in a cell too
            super().reset(*args, **kwargs)
            self.push(dict(kept), interactive=False)

        def showtraceback(self, *args, **kwargs):  # the driver reports errors itself, structured
            pass

        showsyntaxerror = showindentationerror = showtraceback

        def enable_gui(self, gui=None):  # no GUI event loop: figures are drawn with Agg and sent inline
            pass

        def enable_matplotlib(self, gui=None):  # %matplotlib [inline]: keep Agg, which already shows inline
            if gui not in (None, "inline"):
                print("Cairn shows figures inline; %%matplotlib %s is ignored" % gui, file=sys.stderr)
            return "inline", "agg"

        def ask_exit(self):  # exit()/quit(): like sys.exit() in a cell, an error, and the kernel goes on
            raise SystemExit()

    config = Config()
    config.HistoryAccessor.enabled = False  # no SQLite history in the user's home
    shell = CairnShell.instance(config=config)
    shell.system = shell.system_raw  # `!cmd` writes to fd 1/2 directly, so it streams through the capture
    return IPythonExecutor(shell, kept)


class IPythonExecutor:
    ipython = True

    def __init__(self, shell, kept):
        self.shell = shell
        self.namespace = shell.user_ns  # reset() clears and refills this same dict
        self.current = None
        self.kept = kept

    def keep(self, name, value):
        self.kept[name] = value
        self.shell.push({name: value}, interactive=False)  # in user_ns_hidden: %who skips it too

    def hidden_names(self):
        return IPYTHON_NAMES | set(self.shell.user_ns_hidden)

    def cell_number(self, filename):
        number = getattr(self.shell.compile, "_filename_map", {}).get(filename)  # IPython 8
        match = number is None and re.match(r"<ipython-input-(\d+)-", filename)
        return int(match.group(1)) if match else number

    def run(self, code):
        self.current = self.shell.execution_count
        result = self.shell.run_cell(code, store_history=True)
        for error in (result.error_before_exec, result.error_in_exec):
            if error is not None:
                raise error
        return result.result

    def plain_text(self, value):
        return self.shell.display_formatter.formatters["text/plain"](value)

    def reset(self):
        self.shell.reset(new_session=False)


class Location:
    """One place in the user's code: a traceback frame, or where a SyntaxError points (1-based columns)."""

    def __init__(self, filename, line, function, column=None, end_column=None, text=None):
        self.filename, self.line, self.function = filename, line, function
        self.column, self.end_column = column, end_column
        snippet = ((linecache.getline(filename, line) if line else "") or text or "").rstrip("\r\n") or None
        self.snippet = clip(snippet, ERROR_TEXT_LIMIT)

    def pointer(self):
        if self.column is None or self.snippet is None:
            return None
        width = self.end_column - self.column if self.end_column and self.end_column > self.column else 1
        if self.column > ERROR_TEXT_LIMIT:  # past the end of a clipped snippet
            return None
        return " " * (self.column - 1) + "^" * min(width, ERROR_TEXT_LIMIT)


class ErrorReporter:
    """Turns an exception into the protocol's ErrorDetails: user frames only, and a summary to act on.

    line/column/snippet/pointer point into the current cell (the code just sent); when the error was
    raised elsewhere (a user module, a function from an earlier cell) the summary says where.
    """

    def __init__(self, executor):
        self.executor = executor
        self.library_roots = None

    def details(self, exc):
        syntax = isinstance(exc, SyntaxError)
        if isinstance(exc, KeyboardInterrupt):
            message = "interrupted"
        else:  # a SyntaxError's str() repeats the internal cell file name
            message = exc.msg if syntax and exc.msg else safe_call(str, exc)
        message = clip(message, ERROR_TEXT_LIMIT)
        locations = self.user_locations(exc)
        current = [loc for loc in locations if self.executor.cell_number(loc.filename) == self.executor.current]
        here = current[-1] if current else None
        origin = locations[-1] if locations else None
        return {"type": type(exc).__name__, "message": message,
                "line": here and here.line, "column": here and here.column,
                "snippet": here and here.snippet, "pointer": here and here.pointer(),
                "summary": self.summary(type(exc).__name__, message, here, origin, syntax),
                "traceback": [self.format(loc, syntax and loc is origin) for loc in locations]}

    def user_locations(self, exc):
        locations = []
        for frame in traceback.extract_tb(exc.__traceback__):
            if self.is_user_file(frame.filename):
                location = Location(frame.filename, frame.lineno, frame.name)
                location.column = char_column(location.snippet, getattr(frame, "colno", None))  # 3.11+
                if getattr(frame, "end_lineno", None) == frame.lineno:
                    location.end_column = char_column(location.snippet, frame.end_colno)
                locations.append(location)
        if isinstance(exc, SyntaxError) and exc.filename and exc.lineno and self.is_user_file(exc.filename, True):
            end = getattr(exc, "end_offset", None) if getattr(exc, "end_lineno", None) == exc.lineno else None
            locations.append(Location(exc.filename, exc.lineno, None, exc.offset, end, exc.text))
        return locations

    def is_user_file(self, filename, syntax_error=False):
        if self.executor.cell_number(filename) is not None:
            return True
        if filename.startswith("<"):  # <frozen ...>, <decorator-gen-...>; <string> only for eval's errors
            return syntax_error and filename == "<string>"
        path = os.path.normcase(os.path.abspath(filename))
        if self.library_roots is None:
            self.library_roots = library_roots()
        parts = path.split(os.sep)
        return not (path == DRIVER_FILE or path.startswith(self.library_roots)
                    or "site-packages" in parts or "dist-packages" in parts)

    def display_name(self, filename):
        if self.executor.cell_number(filename) is not None:
            return "<cell>"
        if filename.startswith("<"):
            return filename
        path = os.path.abspath(filename)
        try:
            relative = os.path.relpath(path)
        except ValueError:  # another drive (Windows)
            return path
        return path if relative.startswith("..") else relative

    def format(self, loc, with_pointer):
        entry = '  File "%s", line %s' % (self.display_name(loc.filename), loc.line)
        entry += ", in %s" % loc.function if loc.function else ""
        if loc.snippet and loc.snippet.strip():
            stripped = loc.snippet.lstrip()
            entry += "\n    " + stripped.rstrip()
            pointer = loc.pointer()
            if with_pointer and pointer:
                entry += "\n    " + pointer[len(loc.snippet) - len(stripped):]
        return entry

    def summary(self, kind, message, here, origin, syntax):
        text = kind
        if here is not None:
            text += " at line %d" % here.line
            text += ", column %d" % here.column if syntax and here.column else ""
            text += " in %s" % here.function if here.function not in (None, "<module>") else ""
        text += ": " + message if message else ""
        if origin is not None and origin is not here:
            where = self.display_name(origin.filename)
            text += " (raised %sin %s line %d%s)" % (
                "by %s " % origin.function if origin.function not in (None, "<module>") else "",
                "an earlier cell" if where == "<cell>" else where, origin.line,
                ": " + origin.snippet.strip() if origin.snippet else "")
        return text


def char_column(snippet, byte_offset):
    """1-based character column from a 0-based UTF-8 byte offset (what tracebacks record)."""
    if byte_offset is None:
        return None
    return len((snippet or "").encode("utf-8")[:byte_offset].decode("utf-8", "replace")) + 1


def library_roots():
    import site
    import sysconfig

    roots = {sysconfig.get_paths().get(key) for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots.update(getattr(site, "getsitepackages", lambda: [])())
    return tuple(os.path.normcase(os.path.abspath(root)) + os.sep for root in roots if root)


class PyplotHook:
    """Import hook: once matplotlib.pyplot is imported, plt.show() sends the open figures inline."""

    def __init__(self, show_figures):
        self.show_figures = show_figures

    def find_spec(self, name, path=None, target=None):
        if name != "matplotlib.pyplot":
            return None
        for finder in sys.meta_path:
            spec = finder.find_spec(name, path, target) if finder is not self and hasattr(finder, "find_spec") else None
            if spec is not None and hasattr(spec.loader, "exec_module"):
                spec.loader.exec_module = self.patched(spec.loader.exec_module)
                return spec
        return None

    def patched(self, exec_module):
        def exec_and_patch(module):
            exec_module(module)

            def show(*args, **kwargs):  # a function, not a method: matplotlib sets attributes on it
                self.show_figures()

            module.show = show

        return exec_and_patch


class Kernel:
    def __init__(self, use_ipython):
        self.channel = Channel()
        self.diagnostics = os.fdopen(os.dup(2), "w", buffering=1)  # the host's view of our own stderr
        # A segfault in user code still leaves a trace for the host: the crashing thread's, not the driver's.
        faulthandler.enable(self.diagnostics, all_threads=False)
        self.exec_id = None
        self.streams = StreamBuffer(self.channel)
        self.capture = OutputCapture(self.on_output, self.log, self.streams)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # user code never reads the channel
        os.close(null)
        sys.stdout, sys.stderr = self.capture.out.text, self.capture.err.text
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self.after_fork_in_child)
        self.cell_running = threading.Event()
        threading.Thread(target=self.capture.flush_loop, args=(self.cell_running,), daemon=True).start()
        self.in_user_code = False
        signal.signal(signal.SIGINT, self.on_sigint)
        self.requests = queue.Queue()
        self.busy = False
        self.pending_input = None  # (request_id, queue of replies) while input() waits
        self.input_count = 0
        install_input(self.request_input)
        os.environ["MPLBACKEND"] = "Agg"  # read by matplotlib when it is imported: no GUI, ever
        sys.meta_path.insert(0, PyplotHook(self.show_figures))
        self.displays = 0  # sent by the current cell
        # The project folder goes on sys.path only after IPython is imported: a project file named like
        # one of its dependencies (decorator.py, say) must not run, or break IPython, at start-up.
        self.executor = self.make_executor(use_ipython)
        self.errors = ErrorReporter(self.executor)
        self.give_runtime()  # before the project folder is on sys.path: no project file can stand in for it
        driver_folder = os.path.normcase(os.path.dirname(DRIVER_FILE))
        if sys.path and os.path.normcase(os.path.abspath(sys.path[0] or ".")) == driver_folder:
            sys.path[0] = ""  # import the project's modules (cwd), as Jupyter does, not the driver's folder

    def give_runtime(self):
        """`runtime` for the agent's cells, in a kernel of a Cairn session (it has the tool endpoint); none
        elsewhere. A client that fails to import costs the cells `runtime`, never the kernel."""
        if not os.environ.get(TOOL_ENDPOINT_VARIABLE):
            return
        try:
            from cairn_runtime import Runtime
            self.executor.keep(RUNTIME_NAME, Runtime())
        except Exception as exc:
            self.log("warning", "cells have no `runtime`: cairn_runtime failed (%s: %s)" % (type(exc).__name__, exc))

    def after_fork_in_child(self):
        self.channel.close_in_fork()
        self.streams.forked = self.capture.forked = True
        self.capture.out.dirty = self.capture.err.dirty = True  # keeps the child off the fast path

    def make_executor(self, use_ipython):
        if use_ipython:
            try:
                return make_ipython_executor(self)
            except ImportError as exc:
                if importlib.util.find_spec("IPython") is not None:  # installed, but broken: say so
                    self.log("warning", "IPython is installed but failed to import (%s: %s); using the "
                             "standard-library driver" % (type(exc).__name__, exc))
            except Exception as exc:
                self.log("warning", "IPython failed to start (%s: %s); using the standard-library driver"
                         % (type(exc).__name__, exc))
        return PlainExecutor(self)

    def send(self, message):
        if self.streams.forked:
            return
        with self.streams.lock:  # earlier output first: a message never overtakes text written before it
            self.streams.flush()
            self.channel.send(message)

    def log(self, level, message):
        self.send({"type": "log", "level": level, "message": message})

    def on_output(self, name, text):
        if self.exec_id is None:  # printed while starting, before any execution
            self.log("warning", "%s: %s" % (name, text))
        else:  # between executions (a background thread or process), it goes with the latest one
            self.streams.append(name, text)

    def on_sigint(self, signum, frame):
        if self.in_user_code:  # outside a cell (idle, or sending a result) an interrupt has nothing to stop
            raise KeyboardInterrupt

    def request_input(self, prompt, password):
        self.capture.drain()  # what the cell printed before asking arrives before the question
        self.input_count += 1
        request_id = "%s:input-%d" % (self.exec_id, self.input_count)
        replies = queue.Queue()
        self.pending_input = (request_id, replies)
        try:
            self.send({"type": "input_request", "id": self.exec_id, "request_id": request_id,
                       "prompt": clip(str(prompt), ERROR_TEXT_LIMIT), "password": password})
            value = wait_for(replies)
        finally:
            self.pending_input = None
        if value is None:
            raise KeyboardInterrupt
        return value

    def display(self, *objects):
        for value in objects:
            self.send_display(mime_bundle(value, self.executor.plain_text))

    def send_display(self, data):
        bundle = clean_bundle(data)
        if not bundle:
            return
        self.displays += 1
        if self.displays > DISPLAYS_PER_CELL:
            if self.displays == DISPLAYS_PER_CELL + 1:
                print("[Cairn: this cell sent more than %d displays; the rest are not shown]"
                      % DISPLAYS_PER_CELL, file=self.capture.err.text, flush=True)
            return
        self.capture.drain()  # text printed before the display arrives before it
        self.send({"type": "display", "id": self.exec_id, "data": bundle})

    def show_figures(self):
        """Sends every open matplotlib figure as a PNG and closes it (after each cell, and as plt.show())."""
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None:
            return
        for number in pyplot.get_fignums():
            figure, png = pyplot.figure(number), io.BytesIO()
            try:
                figure.savefig(png, format="png", bbox_inches="tight")
            except Exception as exc:
                print("Could not draw figure %d: %s: %s" % (number, type(exc).__name__, exc), file=sys.stderr)
                continue
            self.send_display({"image/png": png.getvalue(), "text/plain": repr(figure)})
        pyplot.close("all")

    def control_loop(self):
        """Reads the channel on its own thread, so replies and interrupts arrive while a cell runs."""
        for message in self.channel.requests(self.log):
            kind = message.get("type")
            if kind == "execute" and self.busy:  # the host queues executions; this is a safety net
                self.send(error_result(message.get("id"), "KernelBusy", "another execution is still running",
                                       "KernelBusy: the kernel is still running another execution; wait for "
                                       "its result or interrupt it, then send this code again"))
            elif kind in ("execute", "reset", "list_variables"):
                self.busy = self.busy or kind == "execute"
                self.requests.put(message)
            elif kind == "input_reply":
                waiting = self.pending_input
                if waiting is not None and waiting[0] == message.get("request_id"):
                    waiting[1].put(str(message.get("value", "")))
                else:
                    self.log("warning", "input_reply for %r, which is not waiting" % message.get("request_id"))
            elif kind == "interrupt":
                self.interrupt()
            elif kind == "shutdown":
                os._exit(0)
            else:
                self.log("warning", "unknown message type %r" % kind)
        exit_with_group()  # EOF: the host closed the channel, or died without stopping this kernel

    def interrupt(self):
        waiting = self.pending_input
        if waiting is not None:
            waiting[1].put(None)  # wakes input(), which raises KeyboardInterrupt in the cell
        elif hasattr(signal, "pthread_kill"):  # a real signal also wakes blocking calls such as time.sleep
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        else:
            _thread.interrupt_main()  # Windows

    def serve(self):
        implementation = sys.implementation.name
        self.send({"type": "ready", "protocol": PROTOCOL, "python": "%d.%d.%d" % sys.version_info[:3],
                   "implementation": {"cpython": "CPython", "pypy": "PyPy"}.get(implementation, implementation),
                   "ipython": self.executor.ipython, "pid": os.getpid()})
        threading.Thread(target=self.control_loop, name="cairn-control", daemon=True).start()
        handlers = {"execute": self.execute, "reset": self.reset, "list_variables": self.list_variables}
        while True:
            message = {}
            try:
                message = self.requests.get()
                handlers[message["type"]](message)
            except BaseException as exc:  # a driver bug: report it and keep serving
                self.in_user_code = False
                traceback.print_exc(file=self.diagnostics)
                self.log("error", "driver error: %s: %s" % (type(exc).__name__, exc))
                if message.get("type") == "execute":
                    self.send(error_result(message.get("id"), "KernelError", "the driver failed: %s" % exc))
                    self.busy = False

    def run_user(self, function, *args):
        """Calls code that may run user code, with interrupts enabled; returns (value, exception)."""
        try:
            self.in_user_code = True
            try:
                return function(*args), None
            finally:
                self.in_user_code = False
        except BaseException as exc:  # KeyboardInterrupt and SystemExit are the cell's result too
            self.in_user_code = False
            return None, exc

    def execute(self, message):
        self.exec_id = self.streams.exec_id = str(message.get("id"))
        self.displays = 0
        signal.signal(signal.SIGINT, self.on_sigint)  # an earlier cell may have replaced it
        self.capture.last_writer = None
        self.cell_running.set()
        restore_environment = give_tool_token(message.get("tool_token"))
        try:
            started = time.perf_counter()
            value, error = self.run_user(self.executor.run, str(message.get("code", "")))
            bundle = None
            if error is None and value is not None:
                bundle, error = self.run_user(mime_bundle, value, self.executor.plain_text)
            elapsed_ms = (time.perf_counter() - started) * 1000
            figures_error = self.run_user(self.show_figures)[1]  # also after an error: a partial plot helps
            self.capture.drain(restore=True)  # every stream message of this execution goes before its result
        finally:
            restore_environment()
        self.cell_running.clear()
        error = figures_error if error is None else error
        result = {"type": "result", "id": self.exec_id, "success": error is None, "return_value": bundle,
                  "error": None if error is None else self.errors.details(error),
                  "execution_time_ms": round(elapsed_ms, 3)}
        self.busy = False  # before the result: the host may send the next execute as soon as it has it
        self.send(result)

    def reset(self, message):
        self.executor.reset()
        self.send({"type": "reset_done", "id": message.get("id")})

    def list_variables(self, message):
        hidden = self.executor.hidden_names()
        variables = [{"name": name, "type": type(value).__name__, "repr": short_repr(value)}
                     for name, value in list(self.executor.namespace.items())
                     if not name.startswith("_") and name not in hidden]
        self.send({"type": "variables", "id": message.get("id"), "variables": variables})


def exit_with_group():
    """Exits, and takes along whatever the cells started: with the host gone, nobody else would stop them.
    The host starts the driver as the leader of its own process group; only then is the group ours."""
    if hasattr(os, "killpg") and os.getpgrp() == os.getpid():
        os.killpg(os.getpgrp(), signal.SIGKILL)
    os._exit(0)


def give_tool_token(token):
    """Puts an agent cell's tool token in the environment (cairn_tools reads it, child processes inherit it)
    and returns what puts the environment back as it was: the token is valid only while that call runs, and
    a cell the user runs has none."""
    if not isinstance(token, str) or not token:
        return lambda: None
    previous = os.environ.get(TOOL_TOKEN_VARIABLE)
    os.environ[TOOL_TOKEN_VARIABLE] = token

    def restore():
        if previous is None:
            os.environ.pop(TOOL_TOKEN_VARIABLE, None)
        else:
            os.environ[TOOL_TOKEN_VARIABLE] = previous

    return restore


def wait_for(replies):
    """queue.get() that a SIGINT can always interrupt: one arriving just before a lock wait starts would
    not wake it, so the wait returns to Python (where the handler runs) every 100 ms."""
    while True:
        try:
            return replies.get(timeout=0.1)
        except queue.Empty:
            pass


def install_input(request_input):
    """input() and getpass.getpass() ask the host (fd 0 is /dev/null)."""
    import getpass

    def cell_input(prompt=""):
        return request_input(prompt, False)

    def cell_getpass(prompt="Password: ", stream=None):
        return request_input(prompt, True)

    builtins.input, getpass.getpass = cell_input, cell_getpass


def error_result(exec_id, kind, message, summary=None):
    """A failed result that no user code produced (KernelBusy, or a driver bug)."""
    return {"type": "result", "id": exec_id, "success": False, "return_value": None, "execution_time_ms": 0,
            "error": {"type": kind, "message": message, "line": None, "column": None, "snippet": None,
                      "pointer": None, "summary": summary or "%s: %s" % (kind, message), "traceback": []}}


if __name__ == "__main__":
    _DRIVER_MODULE = sys.modules[__name__]  # stays alive when the user namespace replaces __main__
    Kernel(use_ipython="--no-ipython" not in sys.argv[1:]).serve()
