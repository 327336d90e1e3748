/** Claude Code's tools that change a session's task list (TaskCreate/TaskUpdate, older TodoWrite). */
export const TASK_TOOLS = /^(?:TaskCreate|TaskUpdate|TodoWrite)$/;
