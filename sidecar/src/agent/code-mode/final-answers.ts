/**
 * The answers `final_answer(...)` recorded, per code-mode turn. The FinalAnswer tool writes here from the
 * kernel's call back into Cairn; the code loop reads it after each step. Only turns that opened a slot
 * take answers, so a script in a tools-mode turn cannot leave one behind.
 */
export class FinalAnswers {
  private readonly answers = new Map<string, string | null>();

  open(turnId: string): void {
    this.answers.set(turnId, null);
  }

  close(turnId: string): void {
    this.answers.delete(turnId);
  }

  /** Records the turn's answer (the last one wins); false when the turn is not in code mode. */
  record(turnId: string, answer: string): boolean {
    if (!this.answers.has(turnId)) return false;
    this.answers.set(turnId, answer);
    return true;
  }

  /** The recorded answer, taken (so a later step starts clean), or null. */
  take(turnId: string): string | null {
    const answer = this.answers.get(turnId) ?? null;
    if (this.answers.has(turnId)) this.answers.set(turnId, null);
    return answer;
  }
}
