/**
 * The last steps before a checkpoint is stored: redact, limit, validate. Whatever the session
 * holds, a checkpoint comes out: when the whole draft cannot go through, each part goes through
 * on its own, and a part that still cannot is replaced whole by a marked stand-in
 * (core/checkpoint/checkpoint.ts `standInSection`), named in `source.partial`. Losing one part of a
 * checkpoint is better than losing the checkpoint.
 * @module
 */
import {
  CHECKPOINT_SECTIONS,
  standInSection,
  type CheckpointDraft,
  type CheckpointSection,
} from '../../core/checkpoint/checkpoint.ts';
import {
  applyCheckpointLimits,
  validateCheckpoint,
} from '../../core/checkpoint/checkpoint-limits.ts';
import { redactValue, SecretMemory } from '../../redact/redact.ts';

export type SealedCheckpoint = {
  checkpoint: CheckpointDraft;
  /** Replacements made by redaction. */
  findings: number;
  /** Parts replaced by stand-ins, with why (empty when the checkpoint is whole). */
  partial: Array<{ section: CheckpointSection; reason: string }>;
};

/** Limited and valid, or the reason it is not. */
function limitAndCheck(draft: CheckpointDraft): CheckpointDraft | string {
  try {
    const limited = applyCheckpointLimits(draft);
    const validation = validateCheckpoint(limited);
    return validation.valid ? limited : validation.errors.join('; ');
  } catch (error) {
    return String(error);
  }
}

/**
 * `memory`: the session's memory of its secrets (a value found anywhere in the session is
 * replaced here too); it learns what the checkpoint holds (a secret in the git diff).
 */
export async function sealCheckpoint(
  draft: CheckpointDraft,
  memory: SecretMemory = new SecretMemory(),
): Promise<SealedCheckpoint> {
  let wholeFailure: string;
  try {
    const redacted = await redactValue(draft, memory);
    const limited = limitAndCheck(redacted.value);
    if (typeof limited !== 'string')
      return { checkpoint: limited, findings: redacted.findings, partial: [] };
    wholeFailure = limited;
  } catch (error) {
    wholeFailure = String(error);
  }
  return sealInParts(draft, wholeFailure, memory);
}

/** Each part on its own: redacted, then tried among stand-ins for the others. */
async function sealInParts(
  draft: CheckpointDraft,
  wholeFailure: string,
  memory: SecretMemory,
): Promise<SealedCheckpoint> {
  const partial: SealedCheckpoint['partial'] = [];
  let findings = 0;
  const base: CheckpointDraft = { ...draft };
  for (const section of CHECKPOINT_SECTIONS)
    base[section] = standInSection(draft, section) as never;
  try {
    const source = await redactValue(draft.source, memory);
    base.source = source.value;
    findings += source.findings;
  } catch {
    base.source = { ...draft.source, transcriptPath: null, cwd: null, reason: null };
  }
  const kept: Partial<Record<CheckpointSection, unknown>> = {};
  for (const section of CHECKPOINT_SECTIONS) {
    try {
      const redacted = await redactValue(draft[section], memory);
      const trial = limitAndCheck({ ...base, [section]: redacted.value });
      if (typeof trial === 'string') {
        partial.push({ section, reason: trial });
        continue;
      }
      kept[section] = redacted.value;
      findings += redacted.findings;
    } catch (error) {
      partial.push({ section, reason: String(error) });
    }
  }
  const assembled: CheckpointDraft = { ...base, ...(kept as Partial<CheckpointDraft>) };
  let checkpoint = limitAndCheck(assembled);
  if (typeof checkpoint === 'string') {
    // Parts that pass alone but not together: keep none of them rather than no checkpoint.
    for (const section of CHECKPOINT_SECTIONS)
      if (kept[section] !== undefined) partial.push({ section, reason: checkpoint });
    checkpoint = limitAndCheck(base);
    if (typeof checkpoint === 'string') throw new Error(`${wholeFailure}; ${checkpoint}`);
  }
  // Every part passed on its own: the checkpoint is whole after all.
  if (partial.length === 0) return { checkpoint, findings, partial };
  return {
    checkpoint: {
      ...checkpoint,
      source: { ...checkpoint.source, partial: [...new Set(partial.map((p) => p.section))] },
    },
    findings,
    partial,
  };
}
