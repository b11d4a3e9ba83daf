// recorder/buffer_extender.hpp — keeps record buffers (recorder/record_buffer.hpp) ready ahead of
// their writers from a thread of its own, so that faulting pages in (and allocating a live file's
// blocks) stays off the event path.
//
// Contract:
// - watch() adds a buffer; unwatch() removes it and returns only when the extender no longer
//   touches it. Both may be called from any thread.
// - The extender thread starts with the first watch() of a process (again in a forked child,
//   which starts with nothing watched); watch() returns once the thread is in its loop, so a
//   fork() afterwards never finds it starting. It blocks every signal, and every millisecond
//   makes each watched buffer ready its lookahead past the records claimed so far
//   (RecordBuffer::extend_ahead_of_writers: two chunks of RecordBuffer::kLiveChunkRecords, more
//   once a writer outran it). With nothing watched it sleeps until the next watch(). It is never
//   joined: it ends with the process.
// - If the thread cannot be started, writers extend the buffer themselves (RecordBuffer::at).
#pragma once

namespace npkit::capture {

class RecordBuffer;

void watch_buffer(RecordBuffer* buffer);
void unwatch_buffer(RecordBuffer* buffer);

}  // namespace npkit::capture
