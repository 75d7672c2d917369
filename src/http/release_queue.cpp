// Answers held back until a moment (see cal/http/release_queue.h).
#include "cal/http/release_queue.h"

#include <utility>

namespace cal {

ReleaseQueue::ReleaseQueue() : thread_([this] { run(); }) {}

ReleaseQueue::~ReleaseQueue() { stop(); }

void ReleaseQueue::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void ReleaseQueue::hold(Clock::time_point when, std::function<void()> release) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (running_) {
      held_.emplace(std::pair{when, next_order_++}, std::move(release));
      lock.unlock();
      changed_.notify_one();
      return;
    }
  }
  std::this_thread::sleep_until(when);
  release();
}

std::size_t ReleaseQueue::held() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return held_.size();
}

void ReleaseQueue::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (held_.empty()) {
      if (stopping_) {
        running_ = false;
        return;
      }
      changed_.wait(lock);
      continue;
    }
    // Stopping does not cut a wait short: a held answer is never released before its moment.
    const Clock::time_point when = held_.begin()->first.first;
    if (Clock::now() < when) {
      changed_.wait_until(lock, when);
      continue;
    }
    std::function<void()> release = std::move(held_.begin()->second);
    held_.erase(held_.begin());
    lock.unlock();
    release();
    lock.lock();
  }
}

}  // namespace cal
