// Parallel recording: one job per list writes that list's command buffer; submission concatenates
// the buffers in submission order after every job is done. Jobs share only read-only inputs (the
// compiled Transitions and the lowered plan) and each writes its own preallocated slot, which is
// why the stream cannot depend on timing (and why ThreadSanitizer has nothing to report).
#include "baton/parallel_record.hpp"

#include <fmt/format.h>

#include <utility>

namespace baton::graph {

// ---------------------------------------------------------------------------------------------
// ThreadPool

ThreadPool::ThreadPool(unsigned threads) {
  workers_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this](std::stop_token st) { work(st); });
}

ThreadPool::~ThreadPool() {
  for (std::jthread& w : workers_) w.request_stop();
  // The jthreads join in their destructors; wake_ observes the stop tokens.
}

void ThreadPool::work(std::stop_token stop) {
  std::unique_lock lock(m_);
  for (;;) {
    if (!wake_.wait(lock, stop, [this] { return next_ < n_; })) return;  // stop requested
    const size_t i = next_++;
    ++running_;
    const std::function<void(size_t)>& job = *job_;
    lock.unlock();
    std::exception_ptr e;
    try {
      job(i);
    } catch (...) {
      e = std::current_exception();
    }
    lock.lock();
    if (e && (!error_ || i < error_index_)) {
      error_ = e;
      error_index_ = i;
    }
    --running_;
    if (next_ >= n_ && running_ == 0) done_.notify_all();
  }
}

void ThreadPool::for_each(size_t n, const std::function<void(size_t)>& job) {
  if (n == 0) return;
  if (workers_.empty()) {  // no workers: run inline, in order
    for (size_t i = 0; i < n; ++i) job(i);
    return;
  }
  std::unique_lock lock(m_);
  job_ = &job;
  n_ = n;
  next_ = running_ = 0;
  error_ = nullptr;
  wake_.notify_all();
  done_.wait(lock, [this] { return next_ >= n_ && running_ == 0; });
  job_ = nullptr;
  n_ = next_ = 0;
  if (std::exception_ptr e = std::exchange(error_, nullptr)) std::rethrow_exception(e);
}

// ---------------------------------------------------------------------------------------------
// Commands

std::string_view to_string(Command::Kind k) {
  switch (k) {
    case Command::Kind::begin_list:
      return "begin";
    case Command::Kind::barriers:
      return "barriers";
    case Command::Kind::work:
      return "work";
    case Command::Kind::end_list:
      return "end";
    case Command::Kind::submit:
      return "submit";
  }
  return "?";
}

std::string to_string(const Command& c) {
  if (c.kind == Command::Kind::barriers)
    return fmt::format("g{} l{} op{} barriers({}) {}", c.group, c.list, c.op, to_string(c.where), c.text);
  return fmt::format("g{} l{} op{} {} {}", c.group, c.list, c.op, to_string(c.kind), c.text);
}

std::string CommandStream::text() const {
  std::string s;
  for (const Command& c : commands) s += to_string(c) + "\n";
  return s;
}

void record_list(const ListJob& job, CommandBuffer& out) {
  const CommandList& list = *job.source;
  const ResourceTable& rt = *job.table;
  auto cmd = [&](Command::Kind k, uint32_t op, Where w, std::string text) {
    out.commands.push_back(Command{k, job.group, job.list, op, w, std::move(text)});
  };
  cmd(Command::Kind::begin_list, 0, Where::before,
      fmt::format("'{}' on {}", list.name(), to_string(list.queue())));
  const std::vector<LoweredPoint>& points = job.lowered->points;
  size_t pi = 0;  // points are in (op, where) order
  auto barriers_at = [&](uint32_t op, Where w) {
    for (; pi < points.size() && points[pi].op == op && points[pi].where == w; ++pi) {
      if (!points[pi].needs_call()) continue;  // every barrier omitted: no API call
      std::string text;
      for (const LoweredBarrier& b : points[pi].barriers) {
        if (b.omitted) continue;
        if (!text.empty()) text += "; ";
        text += fmt::format("{}[{}] {} -> {}", rt[b.resource].name, b.range, b.before, b.after);
        if (!b.note.empty()) text += " [" + b.note + "]";
      }
      cmd(Command::Kind::barriers, op, w, std::move(text));
    }
  };
  for (uint32_t oi = 0; oi < list.ops().size(); ++oi) {
    const Operation& op = list.ops()[oi];
    barriers_at(oi, Where::before);
    std::string text(to_string(op.kind));
    for (size_t u = 0; u < op.uses.size(); ++u)
      text += fmt::format("{}{} {}", u == 0 ? ": " : ", ", rt[op.uses[u].resource].name,
                          to_string(op.uses[u].access));
    cmd(Command::Kind::work, oi, Where::before, std::move(text));
    barriers_at(oi, Where::after);
  }
  if (pi != points.size())
    throw Error(fmt::format("list '{}': barrier point {} names no operation of the list", list.name(), pi));
  cmd(Command::Kind::end_list, 0, Where::before, {});
}

// ---------------------------------------------------------------------------------------------
// Recording a frame

namespace {

// Runs `for_each_job` (serial loop or pool) over every list, then submits in submission order.
template <class ForEach>
CommandStream record_with(const Transitions& t, const RecordOptions& o, ForEach&& for_each_job) {
  const std::vector<LoweredGroup> lowered = lower(o.api, t.table, t.compiled);
  std::vector<ListJob> jobs;
  jobs.reserve(t.store.lists.size());
  for (uint32_t gi = 0; gi < t.groups.size(); ++gi) {
    const std::span<CommandList* const> lists = t.groups[gi]->lists();
    if (lowered.at(gi).lists.size() != lists.size())
      throw Error(fmt::format("group '{}': lowered plan has {} lists, the group {}", t.groups[gi]->name(),
                              lowered[gi].lists.size(), lists.size()));
    for (uint32_t li = 0; li < lists.size(); ++li)
      jobs.push_back(
          ListJob{static_cast<uint32_t>(jobs.size()), gi, li, &t.table, lists[li], &lowered[gi].lists[li]});
  }
  std::vector<CommandBuffer> buffers(jobs.size());  // slot i belongs to job i alone
  std::vector<uint32_t> completion;
  completion.reserve(jobs.size());
  std::mutex completion_m;
  const ListRecorder& recorder = o.recorder ? o.recorder : ListRecorder(record_list);
  for_each_job(jobs.size(), [&](size_t i) {
    const uint32_t job = static_cast<uint32_t>(i);
    if (o.test_hook) o.test_hook(job, false);
    recorder(jobs[i], buffers[i]);
    {
      std::lock_guard lock(completion_m);
      completion.push_back(job);
    }
    if (o.test_hook) o.test_hook(job, true);
  });

  CommandStream s;
  s.completion = std::move(completion);
  size_t total = t.groups.size();
  for (const CommandBuffer& b : buffers) total += b.commands.size();
  s.commands.reserve(total);
  if (o.test_submit_in_completion_order) {  // deliberately wrong: for the tests only
    for (uint32_t i : s.completion)
      s.commands.insert(s.commands.end(), buffers[i].commands.begin(), buffers[i].commands.end());
    return s;
  }
  size_t next = 0;
  for (uint32_t gi = 0; gi < t.groups.size(); ++gi) {
    const size_t n = t.groups[gi]->lists().size();
    for (size_t k = 0; k < n; ++k, ++next)
      s.commands.insert(s.commands.end(), buffers[next].commands.begin(), buffers[next].commands.end());
    s.commands.push_back(Command{
        Command::Kind::submit, gi, 0, 0, Where::before,
        fmt::format("'{}' on {}, {} lists", t.groups[gi]->name(), to_string(t.groups[gi]->queue()), n)});
  }
  return s;
}

}  // namespace

CommandStream record_frame(const Transitions& t, ThreadPool& pool, const RecordOptions& o) {
  return record_with(t, o, [&](size_t n, const std::function<void(size_t)>& job) { pool.for_each(n, job); });
}

CommandStream record_frame(const Transitions& t, const RecordOptions& o) {
  if (o.threads <= 1)
    return record_with(t, o, [](size_t n, const std::function<void(size_t)>& job) {
      for (size_t i = 0; i < n; ++i) job(i);
    });
  ThreadPool pool(o.threads);
  return record_frame(t, pool, o);
}

}  // namespace baton::graph
