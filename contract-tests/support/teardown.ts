/**
 * Cleanup that always runs: each step is registered as its resource is made and run in
 * reverse order, every step even when an earlier one fails (a suite must not leave a
 * cluster or an API process behind).
 */
export class Teardown {
  private readonly steps: Array<{ name: string; run: () => unknown }> = [];

  /** Registers a step; answers `run` so the caller can also run it early (it then runs once). */
  defer(name: string, run: () => unknown): () => Promise<void> {
    let done = false;
    const once = async () => {
      if (done) return;
      done = true;
      await run();
    };
    this.steps.push({ name, run: once });
    return once;
  }

  /** Runs every step, last registered first; throws once, naming every step that failed. */
  async run(): Promise<void> {
    const failures: string[] = [];
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step.run();
      } catch (error) {
        failures.push(`${step.name}: ${String(error)}`);
      }
    }
    if (failures.length) throw new Error(`cleanup failed:\n  ${failures.join('\n  ')}`);
  }
}
