#pragma once
// Logs kept as one JSON object per line: what Docker's json-file driver writes under
// /var/lib/docker/containers (and, on Kubernetes nodes that ran Docker, behind
// /var/log/containers and /var/log/pods), `journalctl -o json`, and the JSON lines collectors such
// as Fluent Bit, Vector and Loki export. Read as they are, a record's text is a JSON string: NCCL's
// `<port>` is written `\u003c…\u003e` by Docker, quotes and backslashes are escaped, a traceback
// is one line with `\n` in it, and the time is a field the line parser never sees. So the records
// are turned back into the log lines they hold before anything reads them, as the collector's own
// plain-text forms print them, which the line parser knows:
// - Docker (`log`, `time`, `stream`): `<time> <text>`, as `kubectl logs --timestamps`; the pieces of
//   a line Docker split at 16 KiB (all but the last without a line break) are joined again;
// - journald (`MESSAGE`, `__REALTIME_TIMESTAMP`, `_HOSTNAME`, `SYSLOG_IDENTIFIER`, `_PID`):
//   `<time> <host> <identifier>[<pid>]: <text>`, as `journalctl -o short-iso-precise`, and
//   `<host> kernel: ` for the kernel's own lines, which keeps them a kernel log;
// - others (`message`, `msg`, `log` or `line`; `@timestamp`, `timestamp`, `time`, `ts` or `date`,
//   as text or as seconds, milliseconds, microseconds or nanoseconds since the epoch; a level):
//   `<time> <LEVEL> <text>`.
// - Cloud Logging's entries (`textPayload`, or `jsonPayload.message`; `timestamp`): as the others,
//   without the severity Cloud Logging gives a container's plain text by its stream alone.
// A record that names its pod (`kubernetes.pod_name` or `kubernetes.pod.name` from Fluent Bit,
// Vector or Filebeat; a GKE container's `resource.labels.pod_name`) starts its lines with
// `[pod/<pod>/<container>] `, as `kubectl logs --prefix` does, so a job's pods in one export are
// each a stream of their own.
// A text with a line break in it becomes one line per line, each with the record's prefix (a
// traceback keeps its time and host on every line). Lines that are no such record (a collector's
// own line, a record cut short at the end of a file still being written) are kept as they are.
// - CloudWatch Logs' events (`message`, `timestamp` in milliseconds, `logStreamName`) in the
//   AWS CLI's answer to `aws logs filter-log-events` / `get-log-events`, `{"events": [...], ...}`;
//   a stream named as SageMaker names a host's ("<job>/algo-<n>-<epoch>") is that host's, as a pod.
// A record whose text is itself a record (Fluent Bit's record of a container's line sent whole as a
// CloudWatch event's message; an application's own JSON log line in Docker's record) is read as the
// inner one, its time, pod and level taking the place of the outer's where it has them.
// Records may also come as JSON arrays, pretty-printed or not (`gcloud logging read --format=json`,
// a log viewer's download). An export whose times mostly go down (gcloud lists the newest entry
// first) is read backwards, in the order its lines were written.

#include <optional>
#include <string>
#include <string_view>

namespace rl
{

// The text with its JSON records turned into log lines, or nullopt when its first line that is not
// blank is no such record (then it is read as it is).
std::optional<std::string> jsonRecordsText(std::string_view text);

} // namespace rl
