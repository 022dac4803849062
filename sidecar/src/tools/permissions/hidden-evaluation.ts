import type { Node } from 'web-tree-sitter';
import { literalText, shellWord } from './shell-words';

/**
 * Bash evaluates some text as arithmetic, and an array subscript met there (`a[$(cmd)]`) is expanded,
 * running the substitution inside it. So a variable holding `a[$(rm x)]` runs `rm x` when it is read in
 * `$((x))`, `[[ $x -eq 0 ]]`, `${!x}` and the like, though the tree shows no command. These checks find
 * such places in the tree: each gives why the part cannot be vouched for, or null.
 */

/** A number as bash's arithmetic reads it, with no name in it (`12`, `0x1f`, `2#101`). */
export const LITERAL_NUMBER = /^[+-]?\d[0-9A-Za-z#@_]*$/;

/** A literal that stores `[` … `$(` or a backtick: a subscript that runs code once evaluated. */
const CODE_IN_SUBSCRIPT = /\[[\s\S]*(\$\(|`)/;

const LITERAL_WORDS = new Set(['word', 'raw_string', 'ansi_c_string', 'string', 'concatenation']);
const ARITHMETIC_COMPARISONS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/** Why `node` hides an evaluation the tree does not show, or null. */
export function hiddenEvaluation(node: Node): string | null {
  switch (node.type) {
    case 'arithmetic_expansion':
      return arithmeticOperands(node.children);
    case 'c_style_for_statement':
      return arithmeticOperands(
        node.children.filter((c) => c.type !== 'do_group' && c.type !== 'compound_statement'),
      );
    case 'compound_statement':
      return node.firstChild?.type === '((' ? arithmeticOperands(node.children) : null;
    case 'expansion':
      return expansionProblem(node);
    case 'subscript':
      return subscriptProblem(node);
    case 'test_command':
      return testProblem(node);
  }
  if (LITERAL_WORDS.has(node.type) && !LITERAL_WORDS.has(node.parent?.type ?? '')) {
    if (CODE_IN_SUBSCRIPT.test(literalText(node))) {
      return `\`${clip(node.text)}\` holds a subscript with a command substitution, which bash runs wherever the text is evaluated as arithmetic or as a name.`;
    }
  }
  return null;
}

const ARITHMETIC_REASON =
  'It evaluates arithmetic on values that are not plain numbers; a value like `a[$(cmd)]` runs cmd there.';

/** Arithmetic whose operands are all literal numbers is fine; a name or an expansion may hide code. */
function arithmeticOperands(nodes: readonly Node[]): string | null {
  for (const node of nodes) {
    if (node.type === 'number' && LITERAL_NUMBER.test(node.text)) continue;
    if (node.childCount === 0) {
      if (node.isNamed) return ARITHMETIC_REASON;
      continue;
    }
    if (arithmeticOperands(node.children) !== null) return ARITHMETIC_REASON;
  }
  return null;
}

/** `${!x}` (indirect), `${x@P}` (transformations), `${s:x}` (arithmetic offsets). */
function expansionProblem(node: Node): string | null {
  const parts = node.children;
  const kinds = parts.map((p) => (p.isNamed ? `<${p.type}>` : p.type));
  if (kinds[1] === '!') {
    // `${!prefix*}`, `${!prefix@}` list names and `${!a[@]}` lists keys: nothing is evaluated.
    const listsNames = (kinds[3] === '*' || kinds[3] === '@') && kinds[4] === '}';
    const listsKeys =
      kinds[2] === '<subscript>' && /\[[@*]\]$/.test(parts[2]?.text ?? '') && kinds[3] === '}';
    if (!(listsNames || listsKeys)) {
      return `\`${clip(node.text)}\` expands the variable a value names, which can run code hidden in that value.`;
    }
    return null;
  }
  if (kinds.includes('@')) {
    return `\`${clip(node.text)}\` transforms a value (\`@P\` runs the substitutions in it), so what runs cannot be known.`;
  }
  const colon = kinds.indexOf(':');
  if (colon >= 0 && arithmeticOperands(parts.slice(colon + 1, -1)) !== null) return ARITHMETIC_REASON;
  return null;
}

/** `a[i]`, `${a[$i]}`: an index that is not a literal number is evaluated as arithmetic. */
function subscriptProblem(node: Node): string | null {
  const index = node.namedChildren[1];
  if (index === undefined) return null;
  const value = shellWord(index).value;
  if (value !== null && (value === '@' || value === '*' || LITERAL_NUMBER.test(value))) return null;
  return `\`${clip(node.text)}\` has a subscript that is evaluated as arithmetic and may run code.`;
}

/**
 * `[[ $x -eq 1 ]]` evaluates both sides as arithmetic (`[ … ]` does not); `-v a[…]` evaluates the
 * subscript in both.
 */
function testProblem(node: Node): string | null {
  const doubleBracket = node.firstChild?.type === '[[';
  for (const expression of node.descendantsOfType(['binary_expression', 'unary_expression'])) {
    if (expression === null) continue;
    const operator = expression.children.find((c) => c.type === 'test_operator')?.text ?? '';
    const operands = expression.namedChildren.filter((c) => c.type !== 'test_operator');
    if (doubleBracket && ARITHMETIC_COMPARISONS.has(operator)) {
      if (!operands.every((o) => LITERAL_NUMBER.test(shellWord(o).value ?? ''))) return ARITHMETIC_REASON;
    } else if (operator === '-v' || operator === '-R') {
      if (!operands.every((o) => PLAIN_NAME.test(shellWord(o).value ?? ''))) {
        return `\`${clip(node.text)}\` tests a variable by a name that may hold a subscript, which runs code.`;
      }
    }
  }
  return null;
}

/** A variable name, or an array element with a literal index: nothing in it is evaluated. */
export const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[(\d+|@|\*)\])?$/;

export function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 80 ? `${oneLine.slice(0, 77)}…` : oneLine;
}
