import type { Tool } from '../tool';
import { askUserQuestionTool } from './ask-user-question';
import { bashTool } from './bash';
import { editTool } from './edit';
import { execTool } from './exec';
import { globTool } from './glob';
import { grepTool } from './grep';
import { readTool } from './read';
import { writeTool } from './write';

/** The tools every agent has, in the order the model sees them. */
export function builtinTools(): Tool[] {
  return [bashTool, execTool, readTool, writeTool, editTool, globTool, grepTool, askUserQuestionTool];
}
