import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { canariesFromEnv } from '@warden/shared/config';
import { buildEnvelope } from '@warden/shared/schemas/envelope';
import type { InteractionRecord } from '@warden/shared/schemas/interaction';

interface DetectSummary {
  records: number;
  invalid: number;
  findings: number;
  byThreat: Record<string, number>;
  bySeverity: Record<string, number>;
}

/** One JSONL line → the record the detectors see, and the id to echo. Lenient: text fields may be absent. */
function lineRecord(line: unknown, n: number): { id: string; record: InteractionRecord } {
  if (!line || typeof line !== 'object' || Array.isArray(line))
    throw new Error('a line must be a JSON object');
  const o = line as Record<string, unknown>;
  const text = (v: unknown, field: string) => {
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw new Error(`${field} must be a string`);
    return v;
  };
  const id =
    typeof o.interactionId === 'string'
      ? o.interactionId
      : typeof o.id === 'string' || typeof o.id === 'number'
        ? String(o.id)
        : `line-${n}`;
  const record = {
    ...o,
    agentId: typeof o.agentId === 'string' && o.agentId ? o.agentId : 'cli',
    prompt: text(o.prompt ?? o.text, 'prompt'),
    response: text(o.response, 'response'),
  } as InteractionRecord;
  return { id, record };
}

export async function runDetect(opts: { input?: string; summary?: boolean }): Promise<DetectSummary> {
  // Loaded here, not at CLI start: the detectors and their model are only needed by this command.
  const { analyzeEnvelope } = await import('@warden/shared/detectors/analyze');
  const canaries = canariesFromEnv();
  const input = opts.input && opts.input !== '-' ? createReadStream(opts.input) : process.stdin;
  const lines = createInterface({ input, crlfDelay: Infinity });
  const summary: DetectSummary = { records: 0, invalid: 0, findings: 0, byThreat: {}, bySeverity: {} };
  let n = 0;
  for await (const raw of lines) {
    n++;
    if (!raw.trim()) continue;
    let parsed;
    try {
      parsed = lineRecord(JSON.parse(raw), n);
    } catch (err) {
      summary.invalid++;
      process.stderr.write(`detect: line ${n} skipped: ${(err as Error).message}\n`);
      continue;
    }
    summary.records++;
    const envelope = buildEnvelope(parsed.record, {
      accountId: 'cli',
      endpoint: 'cli',
      platform: 'cli',
      interactionId: parsed.id,
    });
    const analysis = analyzeEnvelope(envelope, { canaries });
    for (const f of analysis.findings) {
      summary.findings++;
      summary.byThreat[f.threatType] = (summary.byThreat[f.threatType] ?? 0) + 1;
      summary.bySeverity[f.severity] = (summary.bySeverity[f.severity] ?? 0) + 1;
      if (!opts.summary) process.stdout.write(JSON.stringify({ interactionId: parsed.id, ...f }) + '\n');
    }
  }
  return summary;
}

export function registerDetectCommand(program: Command): void {
  program
    .command('detect')
    .description(
      'run the detectors over JSONL interaction records (stdin or --input); JSONL findings on stdout',
    )
    .option('--input <file>', 'read records from a file instead of stdin')
    .option('--summary', 'print counts (JSON) instead of the findings')
    .action(async (opts: { input?: string; summary?: boolean }) => {
      const summary = await runDetect(opts);
      if (opts.summary) process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
      else
        process.stderr.write(
          `detect: ${summary.records} records, ${summary.findings} findings, ${summary.invalid} invalid lines\n`,
        );
      if (summary.invalid > 0) process.exitCode = 1;
    });
}
