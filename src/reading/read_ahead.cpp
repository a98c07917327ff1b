#include "reading/read_ahead.hpp"

#include <algorithm>
#include <cstring>

namespace tracediff::reading {

ReadAhead::ReadAhead(Produce produce) : m_produce(std::move(produce)), m_size(k_slots, 0) {
  for (std::size_t i = 0; i < k_slots; ++i) m_slots.emplace_back(k_slot);
  m_thread = std::thread([this] { run(); });
}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_room.notify_all();
  if (m_thread.joinable()) m_thread.join();
}

void ReadAhead::run() {
  for (std::size_t k = 0;; ++k) {
    {
      std::unique_lock lock(m_mutex);
      // A full ring is refilled once half of it is free: a thread woken per slot costs
      // more than it saves on a VM (a futex round trip is tens of µs).
      if (k - m_consumed == k_slots) {
        m_producer_waits = true;
        m_room.wait(lock, [&] { return m_stop || k - m_consumed <= k_slots / 2; });
        m_producer_waits = false;
      }
      if (m_stop) return;
    }
    // The slot is the producer's alone until it is published below.
    std::size_t n = 0;
    std::exception_ptr error;
    try {
      n = m_produce(m_slots[k % k_slots].get(), k_slot);
    } catch (...) {
      error = std::current_exception();
    }
    bool wake;
    {
      std::lock_guard lock(m_mutex);
      m_size[k % k_slots] = n;
      m_error = error;
      ++m_produced;
      wake = m_reader_waits;
    }
    if (wake) m_filled.notify_one();
    if (n == 0) return;  // the end, an error or a throw: the reader sees it in this slot
  }
}

std::size_t ReadAhead::read(char* dst, std::size_t cap) {
  std::size_t done = 0;
  while (done < cap && !m_end) {
    std::size_t size;
    {
      std::unique_lock lock(m_mutex);
      // Wait only for the first bytes: what is at hand is returned at once.
      if (done > 0 && m_produced == m_consumed) break;
      m_reader_waits = true;
      m_filled.wait(lock, [&] { return m_produced > m_consumed; });
      m_reader_waits = false;
      size = m_size[m_consumed % k_slots];
    }
    if (size == 0) {
      m_end = true;
      m_thread.join();  // what produce() changed is now the caller's to read
      if (m_error) std::rethrow_exception(m_error);
      break;
    }
    const std::size_t n = std::min(cap - done, size - m_offset);
    std::memcpy(dst + done, m_slots[m_consumed % k_slots].get() + m_offset, n);
    done += n;
    m_offset += n;
    if (m_offset == size) {
      m_offset = 0;
      bool wake;
      {
        std::lock_guard lock(m_mutex);
        ++m_consumed;
        wake = m_producer_waits && m_produced - m_consumed <= k_slots / 2;
      }
      if (wake) m_room.notify_one();
    }
  }
  return done;
}

}  // namespace tracediff::reading
