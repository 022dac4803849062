"""cairn_runtime: the `runtime` object of a Cairn kernel, the agent's own context, forks and memory.

In every local kernel of a Cairn session the driver puts `runtime = cairn_runtime.Runtime()` in the
namespace (list_variables does not list it, reset_repl keeps it). Each method is one call of a Cairn tool
through cairn_tools, so it works in cells the agent runs with execute_code (they bring the token); in a
cell the user runs, cairn_tools.ToolRuntimeError is raised. Standard library only, Python 3.9+.

    runtime.selfref.context.inspect()["version"]
    runtime.selfref.context.remember("the tests need the database running")
    runtime.selfref.fork.spawn("parser", "Read parser.py and list its bugs")
    runtime.selfref.memory[-1]            # the last message of your working history

A call the sidecar refuses or fails raises SelfRefError with the sidecar's message; otherwise a method
returns the sidecar's answer as parsed JSON (its text when it is not JSON).
"""
import json
import os
import sys

__all__ = ["Runtime", "SelfRef", "Context", "Fork", "Memory", "SelfRefError"]


class SelfRefError(Exception):
    """The sidecar refused or failed a runtime.selfref call; the message is the sidecar's own."""


_HERE = os.path.dirname(os.path.abspath(__file__))
_own_tools = None


def _tools():
    """Cairn's cairn_tools, the one beside this file: loaded at the first call, not when the kernel starts (it
    imports asyncio and http.client), and never a project's own cairn_tools.py found first on sys.path."""
    global _own_tools
    module = sys.modules.get("cairn_tools")
    if module is not None and os.path.dirname(os.path.abspath(getattr(module, "__file__", "") or "")) == _HERE:
        return module
    if _own_tools is None:
        import importlib.util

        spec = importlib.util.spec_from_file_location("cairn_tools", os.path.join(_HERE, "cairn_tools.py"))
        loaded = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(loaded)
        if "cairn_tools" not in sys.modules:  # a later `import cairn_tools` in a cell gets the same one
            sys.modules["cairn_tools"] = loaded
        _own_tools = loaded
    return _own_tools


def _call(tool, method, arguments):
    """One tool call; its answer parsed, or SelfRefError when the reply is an error."""
    reply = _tools().call(tool, arguments, method=method)
    if reply.is_error:
        raise SelfRefError(reply.content)
    try:
        return json.loads(reply.content)
    except (TypeError, ValueError):
        return reply.content


def _given(**arguments):
    """The arguments that were given: a tool tells an absent argument from a null one."""
    return {name: value for name, value in arguments.items() if value is not None}


def _field(answer, name):
    """answer[name] for an answer that wraps its value in an object, else the answer as it came."""
    return answer[name] if isinstance(answer, dict) and name in answer else answer


class Context:
    """Your context (the Context tool): what the model sees of this session, and your experiences.

    inspect()                          the version, its tokens against the window, its units, your experiences
    remember(text, scope="session")    keep a short fact ("session" or "project"); shown in every request
    forget(experience_id)              remove one of your experiences
    compact(level=..., ref=..., goal=..., ...)   queue a compaction: level "block"|"loop"|"turn"|"session"|
                                       "auto", or a unit's ref; give the summary fields (goal, instruction,
                                       discoveries, completed, current_status, likely_next_work,
                                       relevant_files_directories, remember) to skip the summary call.
                                       Applied after every result of this batch, before your next request.
    versions()                         the context versions
    read(version, before=None)         what you saw at a version, newest messages first, paged
    """

    def inspect(self):
        return _call("Context", "inspect", {})

    def remember(self, text, scope="session"):
        return _call("Context", "remember", {"text": text, "scope": scope})

    def forget(self, experience_id):
        return _call("Context", "forget", {"id": experience_id})

    def compact(self, *, goal=None, instruction=None, discoveries=None, completed=None, current_status=None,
                likely_next_work=None, relevant_files_directories=None, remember=None, level=None, ref=None):
        return _call("Context", "compact", _given(
            goal=goal, instruction=instruction, discoveries=discoveries, completed=completed,
            current_status=current_status, likely_next_work=likely_next_work,
            relevant_files_directories=relevant_files_directories, remember=remember, level=level, ref=ref))

    def versions(self):
        return _call("Context", "versions", {})

    def read(self, version, before=None):
        return _call("Context", "read", _given(version=version, before=before))

    def __repr__(self):
        return "<runtime.selfref.context: inspect, remember, forget, compact, versions, read>"


class Fork:
    """Forks of yourself (the Fork tool): agents that start from your context and work on a task.

    spawn(task, instruction, tools=None)          start one; tools limits what it may use
    gather_all(include_history=False, timeout_s=None)   wait for every fork and collect their results
    status(fork_id)                               how one is doing
    cancel(fork_id)                               stop one
    """

    def spawn(self, task, instruction, tools=None):
        return _call("Fork", "spawn", _given(task=task, instruction=instruction, tools=tools))

    def gather_all(self, include_history=False, timeout_s=None):
        return _call("Fork", "gather_all", _given(include_history=include_history, timeout_s=timeout_s))

    def status(self, fork_id):
        return _call("Fork", "status", {"fork_id": fork_id})

    def cancel(self, fork_id):
        return _call("Fork", "cancel", {"fork_id": fork_id})

    def __repr__(self):
        return "<runtime.selfref.fork: spawn, gather_all, status, cancel>"


class Memory:
    """Your working history (the Memory tool): the messages and system prompt of your next request.

    A message is {"role": "user"|"assistant", "content": str or a list of content blocks}. Indexes count
    from 0; negative ones count from the end, as in a list. Edits are applied together, as one new
    context version, after every result of this batch; reads show the history as it is now.

    count(), len(memory)               how many messages
    all(), for message in memory       every message (one call)
    get(i), memory[i]                  one message (memory[a:b] slices all())
    append(msg), insert(i, msg), update(i, msg) (memory[i] = msg), delete(i) (del memory[i])
    replace(msgs), clear()
    get_system_prompt(), set_system_prompt(text), append_system_prompt(text)
    """

    def count(self):
        return _field(_call("Memory", "count", {}), "count")

    def all(self):
        return _field(_call("Memory", "all", {}), "messages")

    def get(self, index):
        return _field(_call("Memory", "get", {"index": index}), "message")

    def append(self, message):
        return _call("Memory", "append", {"message": message})

    def insert(self, index, message):
        return _call("Memory", "insert", {"index": index, "message": message})

    def update(self, index, message):
        return _call("Memory", "update", {"index": index, "message": message})

    def delete(self, index):
        return _call("Memory", "delete", {"index": index})

    def replace(self, messages):
        return _call("Memory", "replace", {"messages": messages})

    def clear(self):
        return _call("Memory", "clear", {})

    def get_system_prompt(self):
        return _field(_call("Memory", "get_system_prompt", {}), "system_prompt")

    def set_system_prompt(self, text):
        return _call("Memory", "set_system_prompt", {"text": text})

    def append_system_prompt(self, text):
        return _call("Memory", "append_system_prompt", {"text": text})

    def __len__(self):
        return self.count()

    def __getitem__(self, index):
        return self.all()[index] if isinstance(index, slice) else self.get(index)

    def __setitem__(self, index, message):
        self.update(index, message)

    def __delitem__(self, index):
        self.delete(index)

    def __iter__(self):  # one call; without it, iterating would call get(0), get(1), ... until one failed
        return iter(self.all())

    def __repr__(self):
        return "<runtime.selfref.memory: count, all, get, append, insert, update, delete, replace, clear, " \
               "get_system_prompt, set_system_prompt, append_system_prompt>"


class SelfRef:
    """You, the agent, as the runtime sees you: context (Context tool), fork (Fork), memory (Memory)."""

    def __init__(self):
        self.context, self.fork, self.memory = Context(), Fork(), Memory()

    def __repr__(self):
        return "<runtime.selfref: context, fork, memory>"


class Runtime:
    """Cairn's runtime in this kernel. runtime.selfref.context, .fork and .memory reach your own context,
    forks and working history; they work in the cells the agent runs. A refused call raises
    runtime.SelfRefError (cairn_runtime.SelfRefError) with the sidecar's message."""

    SelfRefError = SelfRefError

    def __init__(self):
        self.selfref = SelfRef()

    def __repr__(self):
        return "<Cairn runtime: runtime.selfref.context, .fork, .memory; help(runtime.selfref.context)>"
