import type { KernelToolService } from '../kernel-service';
import type { Tool } from '../tool';
import { askUserQuestionTool } from './ask-user-question';
import { bashTool } from './bash';
import { editTool } from './edit';
import { execTool } from './exec';
import { executeCodeTool } from './execute-code';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listVariablesTool } from './list-variables';
import { readTool } from './read';
import { resetReplTool } from './reset-repl';
import { writeTool } from './write';

/** The tools every agent has, in the order the model sees them. */
export function builtinTools(): Tool[] {
  return [bashTool, execTool, readTool, writeTool, editTool, globTool, grepTool, askUserQuestionTool];
}

/** The Python kernel tools, bound to one session's kernels. */
export function kernelTools(kernels: KernelToolService): Tool[] {
  return [executeCodeTool(kernels), resetReplTool(kernels), listVariablesTool(kernels)] as Tool[];
}
