import { CALL_HELPER, type PythonSignature } from './python-signature';

/** The docstring of `final_answer`, in the prelude and in the signatures the model reads. */
export const FINAL_ANSWER_DOC = 'Ends the task: answer is shown to the user as your reply.';

/** The tool the prelude's `final_answer` records the answer through, before it raises FinalAnswer. */
export const FINAL_ANSWER_TOOL = 'FinalAnswer';

/**
 * What binds the tools, `final_answer`, FinalAnswer and ToolCallError in the kernel's namespace, around
 * the generated functions. Standard library and `cairn_tools` only.
 */
const INSTALL = `
def _cairn_code_mode_install(namespace, tools):
    import json
    import sys
    import types

    import cairn_tools

    # The exceptions live in a module made once per process: code that caught them before the prelude
    # ran again (or before a reset_repl) still catches the ones raised after.
    shared = sys.modules.get("_cairn_code_mode")
    if shared is None:
        shared = types.ModuleType("_cairn_code_mode")

        class FinalAnswer(BaseException):
            """Raised by final_answer(answer) to end the task with .answer. A BaseException, so that an
            \`except Exception\` in the code cannot swallow it."""

            def __init__(self, answer, recorded=True):
                super().__init__(answer)
                self.answer = answer
                self.recorded = recorded  # whether the FinalAnswer call reached Cairn

        class ToolCallError(Exception):
            """A tool call that failed or was denied: the message is the tool's error text."""

            def __init__(self, tool, message, reply=None):
                super().__init__(message)
                self.tool = tool
                self.reply = reply

        for cls in (FinalAnswer, ToolCallError):
            cls.__module__ = shared.__name__
            cls.__qualname__ = cls.__name__
            setattr(shared, cls.__name__, cls)
        sys.modules[shared.__name__] = shared
    FinalAnswer, ToolCallError = shared.FinalAnswer, shared.ToolCallError

    def answer_text(answer):
        if isinstance(answer, str):
            return answer
        if isinstance(answer, (dict, list)):
            try:
                return json.dumps(answer, ensure_ascii=False, default=str)
            except ValueError:  # a circular structure
                pass
        return str(answer)

    def final_answer(answer):
        try:
            reply = cairn_tools.call(${JSON.stringify(FINAL_ANSWER_TOOL)}, {"answer": answer_text(answer)})
            recorded = not reply.get("is_error")
        except Exception:  # Cairn unreachable: the answer still ends the code, carried by the exception
            recorded = False
        error = FinalAnswer(answer, recorded)
        error.args = (answer_text(answer),)  # the text Cairn falls back on when the call could not record it
        raise error

    final_answer.__doc__ = ${JSON.stringify(FINAL_ANSWER_DOC)}

    def call(name, method, arguments):
        # cairn_tools.call is looked up at each call, so a replaced one (a test's recorder) is used.
        given = {key: value for key, value in arguments.items() if value is not None}
        reply = cairn_tools.call(name, given, method=method)
        content = reply.get("content")
        if reply.get("is_error"):
            raise ToolCallError(name, content if isinstance(content, str) else str(content), reply)
        # Only objects and lists are parsed: a result that is a bare number or word stays the text it is.
        if isinstance(content, str) and content.lstrip()[:1] in ("{", "["):
            try:
                return json.loads(content)
            except ValueError:
                pass
        return content

    functions = {"final_answer": final_answer, "FinalAnswer": FinalAnswer, "ToolCallError": ToolCallError}
    for name, function in tools(call).items():
        function.__qualname__ = name
        functions[name] = function
    namespace.update(functions)
    namespace["_cairn_functions"] = functions
    # IPython's list_variables (and %who) skip user_ns_hidden; the plain driver lists these names.
    shell = namespace.get("get_ipython")
    if callable(shell):
        try:
            shell().user_ns_hidden.update(functions)
        except Exception:
            pass
`;

/**
 * The prelude's source: the tool functions are defined in a scope of their own (nothing but the call
 * helper in it, so a tool named like a helper cannot break another), then bound as globals.
 */
export function pythonPrelude(functions: { name: string; signature: PythonSignature }[]): string {
  const defs = functions.map(({ signature }) =>
    indent(`${signature.head}\n    return ${signature.call}`, '    '),
  );
  const table = functions.map(({ name }) => `${JSON.stringify(name)}: ${name}`).join(', ');
  return [
    "# Cairn code mode: the session's tools as functions. Running it again rebinds them.",
    `def _cairn_code_mode_tools(${CALL_HELPER}):`,
    ...defs.map((def) => `${def}\n`),
    `    return {${table}}`,
    INSTALL,
    '_cairn_code_mode_install(globals(), _cairn_code_mode_tools)',
    'del _cairn_code_mode_install, _cairn_code_mode_tools',
    '',
  ].join('\n');
}

/** Indents every line but empty ones (inside a docstring an added indent is only whitespace it trims). */
function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `${by}${line}` : line))
    .join('\n');
}
