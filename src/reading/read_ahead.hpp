#pragma once
// Runs a read function on a thread of its own, a few chunks ahead of its reader: one
// file's inflating and scanning then use two cores. Used for a file read while the
// other cores have nothing to do (one huge file per side, the last file of a set).
// Internal to reading/ (ByteSource::read_ahead).
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "util/scratch_buffer.hpp"

namespace tracediff::reading {

class ReadAhead {
 public:
  // produce(dst, cap) has ByteSource::read's contract: up to cap bytes, 0 only at the end.
  using Produce = std::function<std::size_t(char*, std::size_t)>;
  static constexpr std::size_t k_slots = 4;
  static constexpr std::size_t k_slot = std::size_t{1} << 20;

  explicit ReadAhead(Produce produce);  // starts the thread
  ~ReadAhead();                         // stops it (a reader that gave up early) and joins
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // What produce() gave, in order: up to cap bytes, 0 only at the end. Once it returned
  // 0 the thread has ended, so what produce() changed can be read. Rethrows what
  // produce() threw.
  std::size_t read(char* dst, std::size_t cap);

 private:
  void run();

  Produce m_produce;
  std::vector<ScratchBuffer> m_slots;
  std::vector<std::size_t> m_size;
  std::mutex m_mutex;
  // Each side is woken only when it waits and can go on: a futex round trip costs tens
  // of µs on a VM, more than a slot's worth of work saved if done per slot.
  std::condition_variable m_filled, m_room;
  bool m_reader_waits = false, m_producer_waits = false;
  std::size_t m_produced = 0, m_consumed = 0;  // slots filled, slots given back
  std::size_t m_offset = 0;                    // read() in the current slot
  bool m_stop = false;
  bool m_end = false;  // read() reached the end
  std::exception_ptr m_error;
  std::thread m_thread;
};

}  // namespace tracediff::reading
