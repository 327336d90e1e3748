/**
 * Doctor: sessions of the last week whose agent stopped writing their log (the hooks
 * noticed, core/policy/transcript-watch.ts). Information only: the sessions went on, shim just could
 * not follow them.
 * @module
 */
import { listTranscriptAlarms } from '../../store/cache/transcript-alarms.ts';
import { check, type DoctorCheck } from './doctor-check.ts';

const WEEK_MS = 7 * 86_400_000;

export function transcriptCheck(home: string, now: Date): DoctorCheck {
  const alarms = listTranscriptAlarms(home, now.getTime() - WEEK_MS);
  if (alarms.length === 0)
    return check(
      'transcripts',
      'transcripts',
      'ok',
      false,
      'every watched session kept its transcript',
    );
  const newest = alarms[0]!;
  const more = alarms.length > 1 ? ` (and ${alarms.length - 1} more this week)` : '';
  return check(
    'transcripts',
    'transcripts',
    'warn',
    false,
    `session ${newest.sessionId} ${newest.alarm === 'missing' ? 'wrote no transcript' : 'stopped writing its transcript'} after ${newest.toolCalls} tool calls, ${newest.at}${newest.cwd ? ` in ${newest.cwd}` : ''}${more}: shim could not checkpoint it`,
    'start the agent from a plain shell, not inside another session of it; for Claude Code also unset CLAUDE_CODE_SKIP_PROMPT_HISTORY (or set CLAUDE_CODE_FORCE_SESSION_PERSISTENCE=1)',
  );
}
