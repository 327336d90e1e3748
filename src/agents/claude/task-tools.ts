/** Claude Code's tools that change a session's task list (TaskCreate/TaskUpdate, older TodoWrite). */
/** The tools a restore names for rebuilding the task list (the newer first in the prompt's wording). */
export const TASK_TOOL_NAMES: readonly string[] = ['TodoWrite', 'TaskCreate'];

export const TASK_TOOLS = /^(?:TaskCreate|TaskUpdate|TodoWrite)$/;
