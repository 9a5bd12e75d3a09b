// The explain view: which hooks ran, in which batch, which did not and why, what each answered, and the
// combined decision, for `hooks explain`.
import { outcomeOf, type Decision, type Outcome, type Step } from '../decide/combine.js';
import { describeNoConfig } from '../config/load.js';
import { describeVia, layerStatus, type ResolvedConfig } from '../config/resolve.js';
import { eventSpec } from '../events/catalog.js';
import { createStyle, type Paint } from './style.js';
import { judgeLine } from '../judge/note.js';

/** The explanation as a readable tree. */
export function renderExplanation(decision: Decision, colour: boolean, config?: ResolvedConfig, env: NodeJS.ProcessEnv = {}): string {
  const s = createStyle(colour);
  const paint: Record<Outcome, Paint> = { continue: s.green, allow: s.green, modify: s.cyan, ask: s.yellow, block: s.red, halt: s.magenta };
  const event = decision.event;
  const spec = eventSpec(event.name);
  const tool = event.tool === undefined ? '' : ` · tool ${event.tool.canonical}${event.tool.name === event.tool.canonical ? '' : ` (${event.tool.name})`}`;
  const mode = spec.mode === 'intercept' ? 'chain: each hook sees the payload as rewritten before it' : 'observe: all matching hooks run at once';
  const lines: string[] = [];
  if (config !== undefined) {
    if (config.layers.length === 0) lines.push(s.dim(describeNoConfig(config.search, env)));
    for (const layer of config.layers) lines.push(`${s.dim(`${layer.layer} layer`)} ${layer.file} ${(layer.active ? s.dim : s.yellow)(layerStatus(layer))}`);
  }
  lines.push(`${s.bold(spec.cli)}${tool}  ${s.dim(mode)}`);
  if (decision.steps.length === 0) lines.push(s.dim('  no hooks are configured for this event'));

  let batch = -1;
  for (const step of decision.steps) {
    if (step.batch !== batch && step.batch > 0) {
      batch = step.batch;
      const size = decision.steps.filter((x) => x.batch === batch).length;
      lines.push(s.dim(`  ${spec.mode === 'observe' ? 'all at once' : `batch ${batch}`}${size > 1 && spec.mode === 'intercept' ? ' (parallel)' : ''}`));
    }
    if (step.batch === 0 && batch !== 0) {
      batch = 0;
      lines.push(s.dim('  after the decision'));
    }
    lines.push(`    ${stepLine(step, paint, s)}`);
  }

  for (const w of decision.warnings) lines.push(s.yellow(`  ! ${w}`));
  const by = decision.decidedBy === undefined ? '' : ` by ${decision.decidedBy}`;
  lines.push(`${s.bold('→')} ${paint[decision.decision](decision.decision)}${by}${decision.reason ? ` — ${decision.reason}` : ''}`);
  const rewritten = decision.updatedInput ?? decision.prompt ?? decision.updatedOutput?.value;
  if (rewritten !== undefined) lines.push(`  ${s.dim('rewritten to')} ${JSON.stringify(rewritten)}`);
  if (decision.additionalContext.length > 0) lines.push(`  ${s.dim('context')} ${JSON.stringify(decision.additionalContext)}`);
  return `${lines.join('\n')}\n`;
}

/** The explanation as data, for tools. */
export function explanationJson(decision: Decision, config?: ResolvedConfig): Record<string, unknown> {
  return {
    ...(config === undefined ? {} : { layers: config.layers }),
    event: decision.event.name,
    ...(decision.event.tool === undefined ? {} : { tool: decision.event.tool }),
    decision: decision.decision,
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    ...(decision.decidedBy === undefined ? {} : { decidedBy: decision.decidedBy }),
    ...(decision.updatedInput === undefined ? {} : { updatedInput: decision.updatedInput }),
    ...(decision.prompt === undefined ? {} : { prompt: decision.prompt }),
    ...(decision.updatedOutput === undefined ? {} : { updatedOutput: decision.updatedOutput.value }),
    additionalContext: decision.additionalContext,
    warnings: decision.warnings,
    steps: decision.steps.map((step) => ({
      id: step.id,
      batch: step.batch,
      status: step.status,
      source: step.source,
      ...(step.why === undefined ? {} : { why: step.why }),
      ...(step.overriddenBy === undefined ? {} : { overriddenBy: step.overriddenBy }),
      ...(step.result === undefined
        ? {}
        : {
            outcome: outcomeOf(step.result.reply),
            ms: step.result.ms,
            ...(step.result.reply.reason === undefined ? {} : { reason: step.result.reply.reason }),
            ...(step.result.failure === undefined ? {} : { failure: step.result.failure }),
            // Shadow (audit) mode: what the hook answered, reported and not applied.
            ...(step.result.wouldHave === undefined ? {} : { wouldHave: { outcome: outcomeOf(step.result.wouldHave), ...(step.result.wouldHave.reason === undefined ? {} : { reason: step.result.wouldHave.reason }) } }),
            ...(step.result.judge === undefined ? {} : { judge: step.result.judge }),
          }),
    })),
  };
}

function stepLine(step: Step, paint: Record<Outcome, Paint>, s: ReturnType<typeof createStyle>): string {
  const changed = step.overriddenBy === undefined ? '' : `, ${step.overriddenBy.fields.join(', ')} set by ${step.overriddenBy.layer} layer ${step.overriddenBy.file} ${step.overriddenBy.key}`;
  const where = s.dim(`${step.source.layer}${step.source.file ? ` ${step.source.file}` : ''} ${step.source.key}${describeVia(step.source)}${changed}`);
  switch (step.status) {
    case 'skipped':
      return `${s.dim('○')} ${step.id} ${s.dim(`skipped: ${step.why}`)}  ${where}`;
    case 'not-reached':
      return `${s.dim('○')} ${step.id} ${s.dim(`not run: ${step.why}`)}  ${where}`;
    case 'observer':
      return `${s.dim('◇')} ${step.id} ${s.dim('records the run')}  ${where}`;
    case 'ran': {
      const result = step.result!;
      const outcome = outcomeOf(result.reply);
      const mark = result.failure !== undefined ? s.red('✗') : outcome === 'block' || outcome === 'halt' ? s.red('■') : s.green('●');
      const failure = result.failure === undefined ? '' : ` ${s.red(`failed: ${result.failure.kind}: ${result.failure.message}`)}`;
      const audit = result.wouldHave === undefined ? '' : s.yellow(` (audit: would ${outcomeOf(result.wouldHave)})`);
      const reason = result.reply.reason ?? result.wouldHave?.reason;
      const judge = result.judge === undefined ? '' : ` ${s.dim(judgeLine(result.judge))}`;
      return `${mark} ${s.bold(step.id)} ${paint[outcome](outcome)}${audit} ${s.dim(`${result.ms}ms`)}${judge}${failure}${reason ? ` — ${reason}` : ''}  ${where}`;
    }
  }
}
