/**
 * Run silently in each Python kernel started on a Jupyter Server: such a kernel cannot reach Cairn's tool
 * endpoint (it may run on another machine, and gets no token), so `cairn_tools` there is a stand-in whose
 * functions raise ToolRuntimeError saying so, as the real client does when it has no endpoint. It leaves no
 * names in the user's namespace.
 */
export const TOOLS_STUB_CODE = `
def _cairn_tools_stub():
    import sys, types
    message = ("Cairn's tools are not available in kernels on a Jupyter Server: only local kernels, Bash and "
               "Exec can reach Cairn's tool endpoint. Call the tool from the agent, or run this in a local kernel "
               "or with Bash or Exec.")
    module = types.ModuleType("cairn_tools", "Cairn's tool client: not available in kernels on a Jupyter Server.")

    class ToolRuntimeError(Exception):
        pass

    def unavailable(*args, **kwargs):
        raise ToolRuntimeError(message)

    async def unavailable_async(*args, **kwargs):
        raise ToolRuntimeError(message)

    ToolRuntimeError.__module__ = "cairn_tools"
    module.ToolRuntimeError, module.Reply = ToolRuntimeError, dict
    for name in ("call", "status", "cancel", "output"):
        setattr(module, name, unavailable)
        setattr(module, name + "_async", unavailable_async)
    sys.modules["cairn_tools"] = module

_cairn_tools_stub()
del _cairn_tools_stub
`;
