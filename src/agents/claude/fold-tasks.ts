/**
 * What the task tools tell the session: TodoWrite's list, TaskCreate / TaskUpdate (whose results
 * lack what their inputs carried), and the results that finish subagents or name background
 * shells. Part of the fold (fold.ts), which calls these with the state it owns.
 * @module
 */
import {
  LIMITS,
  pushBounded,
  type PendingToolCall,
  type SessionState,
  type TaskItem,
  type TodoItem,
} from '../../core/session.ts';
import { clip } from '../../core/truncate.ts';
import { isObject } from './entry.ts';
import { secretFree } from '../../transcript/scrub.ts';

export function readTodos(value: unknown): TodoItem[] | null {
  if (!Array.isArray(value)) return null;
  const todos: TodoItem[] = [];
  for (const item of value.slice(0, LIMITS.todos)) {
    if (!isObject(item) || typeof item.content !== 'string') continue;
    const todo: TodoItem = {
      content: secretFree(clip(item.content, 300)),
      status: typeof item.status === 'string' ? item.status : 'pending',
    };
    if (typeof item.activeForm === 'string')
      todo.activeForm = secretFree(clip(item.activeForm, 300));
    todos.push(todo);
  }
  return todos;
}

function upsertTask(state: SessionState, task: TaskItem): void {
  const existing = state.tasks.find((t) => t.id === task.id);
  if (existing) Object.assign(existing, task);
  else pushBounded(state.tasks, task, LIMITS.tasks);
}

/** Task tools carry what the result lacks in their input; keep the few fields we need. */
export function readToolMeta(name: string, input: unknown): Record<string, string> | undefined {
  if (!isObject(input)) return undefined;
  const pick = (...keys: string[]) => {
    const meta: Record<string, string> = {};
    for (const key of keys) {
      const v = input[key];
      if (typeof v === 'string' || typeof v === 'number')
        meta[key] = secretFree(clip(String(v), key === 'command' ? LIMITS.commandChars : 500));
    }
    return meta;
  };
  if (name === 'TaskCreate') return pick('subject', 'description');
  if (name === 'TaskUpdate') return pick('taskId', 'status', 'subject', 'description');
  if (name === 'Bash') return pick('command');
  return undefined;
}

/** Results finish subagents and tell background shells their ids. */
export function foldTaskResult(state: SessionState, toolUseId: string, text: string): void {
  const task = state.backgroundTasks.find((t) => t.id === toolUseId);
  if (!task) return;
  if (task.kind === 'subagent') task.done = true;
  else {
    const shellId = /\bID:\s*([\w-]+)/i.exec(text)?.[1];
    if (shellId) task.handle = shellId;
  }
}

export function applyTaskResult(
  state: SessionState,
  pending: PendingToolCall,
  result: unknown,
): void {
  const structured = isObject(result) ? result : {};
  if (pending.tool === 'TaskCreate') {
    const task = isObject(structured.task) ? structured.task : {};
    const id = task.id ?? structured.taskId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const item: TaskItem = {
      id: String(id),
      subject: secretFree(clip(String(task.subject ?? pending.meta?.subject ?? ''), 300)),
      status: 'pending',
    };
    if (pending.meta?.description) item.description = pending.meta.description;
    upsertTask(state, item);
  } else if (pending.tool === 'TaskUpdate') {
    const id = structured.taskId ?? pending.meta?.taskId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const change = isObject(structured.statusChange) ? structured.statusChange : {};
    const status = typeof change.to === 'string' ? change.to : pending.meta?.status;
    const existing = state.tasks.find((t) => t.id === String(id));
    const item: TaskItem = existing
      ? { ...existing }
      : { id: String(id), subject: pending.meta?.subject ?? '', status: 'pending' };
    if (status) item.status = status;
    if (pending.meta?.subject) item.subject = pending.meta.subject;
    upsertTask(state, item);
  }
}
