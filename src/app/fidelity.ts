/**
 * Restore fidelity against Claude Code's own compaction summary: for a compaction in a real
 * transcript, which of the user's requests, the files the agent changed and the open tasks does
 * each text carry into the next session?
 * @module
 */
import { readFileSync } from 'node:fs';
import { assessSession } from '../core/assess.ts';
import { buildCheckpoint } from '../core/build-checkpoint.ts';
import { applyCheckpointLimits } from '../core/checkpoint.ts';
import { renderResumePrompt } from '../core/resume-prompt.ts';
import { readTranscript } from '../transcript/reader.ts';

export type FidelityItems = { requests: string[]; files: string[]; openTasks: string[] };
export type FidelityScore = { found: number; total: number; missing: string[] };
export type FidelityComparison = {
  compactionLine: number;
  items: FidelityItems;
  shim: FidelityScore;
  claude: FidelityScore;
  shimChars: number;
  claudeChars: number;
};

/** A request counts as carried when its first 60 characters (whitespace folded) appear. */
const keyOf = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 60);
const fold = (text: string) => text.replace(/\s+/g, ' ');

function score(text: string, items: FidelityItems): FidelityScore {
  const haystack = fold(text);
  const missing: string[] = [];
  let found = 0;
  const all = [
    ...items.requests.map((r) => ({ label: `request: ${keyOf(r)}`, needle: keyOf(r) })),
    // Files by base name: summaries often shorten paths.
    ...items.files.map((f) => ({ label: `file: ${f}`, needle: f.split('/').pop()! })),
    ...items.openTasks.map((t) => ({ label: `task: ${t}`, needle: keyOf(t) })),
  ];
  for (const item of all) {
    if (haystack.includes(item.needle)) found++;
    else missing.push(item.label);
  }
  return { found, total: all.length, missing };
}

/** Compares, at every compaction of `path`, shim's resume prompt with Claude Code's summary. */
export function compareWithCompactionSummaries(path: string): FidelityComparison[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const summaries = new Map<number, string>();
  lines.forEach((line, index) => {
    if (!line.includes('"isCompactSummary":true')) return;
    const entry = JSON.parse(line) as { message?: { content?: unknown } };
    const content = entry.message?.content;
    const text =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content.map((b: { text?: string }) => b.text ?? '').join('\n')
          : '';
    summaries.set(index + 1, text);
  });
  const comparisons: FidelityComparison[] = [];
  const final = readTranscript(path, null).cursor.state;
  for (const compaction of final.compactions) {
    const summaryLine = [...summaries.keys()].find((l) => l > compaction.line);
    if (summaryLine === undefined) continue;
    const state = readTranscript(path, null, { untilLine: compaction.line - 1 }).cursor.state;
    const assessment = assessSession(state, {
      env: {},
      history: [],
      now: state.lastActivityAt ?? 0,
    });
    const checkpoint = {
      ...applyCheckpointLimits(
        buildCheckpoint({
          id: 'fidelity',
          sessionId: state.sessionId ?? 'fidelity',
          createdAt: new Date(state.lastActivityAt ?? 0).toISOString(),
          trigger: 'pre_compact',
          reason: null,
          state,
          assessment,
          git: null,
          transcriptPath: path,
        }),
      ),
      checkpointNumber: 1,
    };
    const prompt = renderResumePrompt(checkpoint, null);
    const items: FidelityItems = {
      requests: state.prompts.map((p) => p.text).filter((t) => keyOf(t).length >= 20),
      files: [...state.filesChanged],
      openTasks: (state.tasks.length
        ? state.tasks.map((t) => ({ c: t.subject, s: t.status }))
        : state.todos.map((t) => ({ c: t.content, s: t.status }))
      )
        .filter((t) => t.s !== 'completed' && t.s !== 'deleted')
        .map((t) => t.c),
    };
    const summary = summaries.get(summaryLine)!;
    comparisons.push({
      compactionLine: compaction.line,
      items,
      shim: score(prompt, items),
      claude: score(summary, items),
      shimChars: prompt.length,
      claudeChars: summary.length,
    });
  }
  return comparisons;
}
