import { readdirSync, readFileSync } from "node:fs"

// Linux's /proc: resident memory and CPU time of the processes under test. Clock ticks are 100 per second on
// every Linux this runs on (USER_HZ); the figures are deltas over runs of several seconds.
const ticksPerSecond = 100

/** Resident memory of `pid` in MB (VmRSS of /proc/<pid>/status). */
export const rssMb = (pid: number): number => {
  const line = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  if (line?.[1] === undefined) throw new Error(`no VmRSS for process ${pid}`)
  return Number(line[1]) / 1024
}

interface Stat {
  readonly ppid: number
  readonly own: number
  readonly children: number
}

// Fields after the command name (which may hold spaces, so parsing starts after its closing parenthesis):
// state ppid ... utime(14) stime(15) cutime(16) cstime(17), numbered as in proc(5).
const stat = (pid: number): Stat | undefined => {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8")
  } catch {
    return undefined
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
  const field = (number: number) => Number(fields[number - 3] ?? "0")
  return {
    ppid: field(4),
    own: (field(14) + field(15)) / ticksPerSecond,
    children: (field(16) + field(17)) / ticksPerSecond
  }
}

/** CPU time (user + system, every thread) that `pid` has used, in seconds. */
export const cpuSeconds = (pid: number): number => stat(pid)?.own ?? 0

/**
 * CPU time of `pid` and of its direct children, living or exited (reaped children count in the parent's
 * cutime/cstime), in seconds: for the PostgreSQL postmaster, the time of every backend.
 */
export const treeCpuSeconds = (pid: number): number => {
  const root = stat(pid)
  if (root === undefined) return 0
  let total = root.own + root.children
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const child = stat(Number(entry))
    if (child !== undefined && child.ppid === pid) total += child.own + child.children
  }
  return total
}
