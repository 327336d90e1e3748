import type { Agents } from '../../agents/agent.ts';
import { getShimHome } from '../../store/home/home.ts';
import { getVersion } from '../version.ts';

/** Runs the stdio MCP server until the client disconnects. The SDK loads only here. */
export async function runMcp(agents: Agents): Promise<void> {
  const { runStdioServer } = await import('../../mcp/stdio.ts');
  await runStdioServer({
    agents,
    home: getShimHome(),
    cwd: process.cwd(),
    env: process.env,
    version: getVersion(),
  });
}
