#include "block_run.hpp"

#include "engine.hpp"
#include "own_storage.hpp"
#include "running_thread.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>

namespace carbide::cpu {

struct BlockRun::ThreadSlot {
  detail::ThreadState state{};
  Status status = Status::NotStarted;
  // Where it waits, and with what, at a barrier or collective.
  const char* wait_file = "";
  unsigned wait_line = 0;
  Collective collective = Collective::ShuffleDown;
  void* value = nullptr;
  std::size_t bytes = 0;
  unsigned operand = 0;
  bool predicate = false;
  std::uint32_t vote = 0;
  FiberHandle fiber;  // the thread's fiber while it waits (the loop's, in slot 0, for a kernel without barriers)
};

namespace {

constexpr std::size_t kSharedAlignment = 16;  // as the device's __align__(16) storage
constexpr unsigned kWarp = 32;

std::size_t align_up(std::size_t bytes, std::size_t alignment) { return (bytes + alignment - 1) / alignment * alignment; }

const char* collective_name(Collective kind) {
  switch (kind) {
    case Collective::ShuffleDown: return "carbide::warp::shfl_down";
    case Collective::ShuffleUp: return "carbide::warp::shfl_up";
    case Collective::ShuffleXor: return "carbide::warp::shfl_xor";
    case Collective::ShuffleIndex: return "carbide::warp::shfl or broadcast";
    case Collective::Ballot: return "carbide::warp::ballot";
    case Collective::Any: return "carbide::warp::any";
    case Collective::All: return "carbide::warp::all";
  }
  return "a warp collective";
}

std::string site_text(const char* file, unsigned line) {
  if (file == nullptr || *file == '\0') return "an unknown line (no carbide::cpu::at before it)";
  return std::string(file) + ":" + std::to_string(line);
}

bool same_site(const char* file_a, unsigned line_a, const char* file_b, unsigned line_b) {
  return line_a == line_b && (file_a == file_b || std::strcmp(file_a, file_b) == 0);
}

// Which lane of an n-lane warp lane `lane` reads in a shuffle; its own where that lies outside.
unsigned source_lane(Collective kind, unsigned lane, unsigned operand, unsigned lanes) {
  unsigned source = lane;
  if (kind == Collective::ShuffleDown) source = lane + operand;
  if (kind == Collective::ShuffleUp) source = operand <= lane ? lane - operand : lane;
  if (kind == Collective::ShuffleXor) source = lane ^ operand;
  if (kind == Collective::ShuffleIndex) source = operand % kWarp;  // as __shfl_sync, modulo the width
  return source < lanes ? source : lane;
}

const char* present(Use use) {
  switch (use) {
    case Use::Read: return "reads";
    case Use::Write: return "writes";
    case Use::ReadWrite: return "updates";
    case Use::AtomicRead: return "atomically reads";
    case Use::AtomicWrite: return "atomically updates";
  }
  return "touches";
}

const char* past(Use use) {
  switch (use) {
    case Use::Read: return "read";
    case Use::Write: return "wrote";
    case Use::ReadWrite: return "updated";
    case Use::AtomicRead: return "atomically read";
    case Use::AtomicWrite: return "atomically updated";
  }
  return "touched";
}

KernelError::AccessKind access_kind(Use use) {
  switch (use) {
    case Use::Read: return KernelError::AccessKind::Read;
    case Use::Write: return KernelError::AccessKind::Write;
    case Use::ReadWrite: return KernelError::AccessKind::ReadWrite;
    case Use::AtomicRead:
    case Use::AtomicWrite: return KernelError::AccessKind::Atomic;
  }
  return KernelError::AccessKind::Read;
}

}  // namespace

void BlockRun::AlignedFree::operator()(std::byte* memory) const { std::free(memory); }

BlockRun::BlockRun(Engine& engine, Worker& worker) : engine_(engine), worker_(worker) {}

BlockRun::~BlockRun() = default;

void BlockRun::clear_shadows() {
  if (static_shadow_ != nullptr) static_shadow_->clear();
  if (dynamic_shadow_ != nullptr) dynamic_shadow_->clear();
}

// --- Running a block --------------------------------------------------------------------------

// The block's scheduler, on the worker's own stack: it starts the first ready thread, and the
// threads hand over to each other directly (switch_to); it runs again only once no thread is
// ready, when all have returned, the rest wait for one another, or one has left the block.
void BlockRun::run(Launch& launch, std::uint64_t flat_block) {
  begin(launch, flat_block);
  const unsigned fibers = fibers_ ? threads_ : 1;
  for (unsigned i = 0; i < fibers; ++i) {
    make_fiber(i);
    make_ready(i);
  }
  running_ = kScheduler;
  while (!left_ && ready_count_ > 0) switch_to(next_ready());
  running_thread = nullptr;
  if (!left_ && fibers_) report_stuck_threads();
  // Finished fibers hold nothing; those of a block that failed are left where they stand.
  for (unsigned i = 0; i < fibers; ++i) slots_[i].fiber.forget();
  scheduler_.forget();
}

void BlockRun::make_ready(unsigned index) {
  ready_[(ready_head_ + ready_count_++) % threads_] = index;
}

unsigned BlockRun::next_ready() {
  if (ready_count_ == 0) return kScheduler;
  const unsigned next = ready_[ready_head_];
  ready_head_ = (ready_head_ + 1) % threads_;
  --ready_count_;
  return next;
}

void BlockRun::begin(Launch& launch, std::uint64_t flat_block) {
  launch_ = &launch;
  flat_block_ = flat_block;
  block_idx_ = block_coordinates(flat_block, launch.grid());
  threads_ = launch.threads_per_block();
  fibers_ = launch.simt()->synchronizes;
  recording_ = launch.checks();
  left_ = false;
  running_ = 0;
  at_barrier_ = 0;
  barriers_differ_ = false;
  ready_.assign(threads_, 0);
  ready_head_ = ready_count_ = 0;
  at_collective_.assign((threads_ + kWarp - 1) / kWarp, 0);
  if (slot_capacity_ < threads_) {
    slots_.reset(new ThreadSlot[threads_]);
    slot_capacity_ = threads_;
  }
  // A fiber per thread, each with its state; the loop moves one state from thread to thread.
  const Coordinates block = launch.block();
  for (unsigned i = 0; i < (fibers_ ? threads_ : 1); ++i) {
    ThreadSlot& slot = slots_[i];
    slot.state = {thread_coordinates(i, block), block_idx_, block, launch.grid(), i, "", 0, recording_, kTicksBetweenChecks,
                  this};
    slot.status = Status::NotStarted;
  }
  prepare_shared_memory();
  open_segment();
}

void BlockRun::prepare_shared_memory() {
  const KernelEntry& entry = *launch_->simt();
  // Room for every site's padding to 16 bytes besides the bytes the entry counts.
  static_capacity_ = align_up(entry.static_shared_bytes, kSharedAlignment) +
                     kSharedAlignment * (std::size_t(entry.shared_site_count) + 1);
  dynamic_bytes_ = launch_->dynamic_shared_bytes();
  const std::size_t needed = static_capacity_ + align_up(dynamic_bytes_, kSharedAlignment);
  if (needed > arena_bytes_) {
    void* memory = std::aligned_alloc(64, align_up(needed, 64));
    if (memory == nullptr)
      throw Error(std::string("launch of ") + launch_->kernel() + ": no host memory for " + std::to_string(needed) +
                  " bytes of shared memory");
    arena_.reset(static_cast<std::byte*>(memory));
    arena_bytes_ = needed;
  }
  sites_.clear();
  static_used_ = static_counted_ = 0;
  if (!recording_) return;
  unsigned shift = 3;
  for (unsigned i = 0; i < entry.shared_site_count; ++i)
    shift = std::min(shift, granule_shift_for(entry.shared_sites[i].element_bytes));
  const auto begin = reinterpret_cast<std::uintptr_t>(arena_.get());
  if (static_shadow_ == nullptr || static_shadow_->begin() != begin || static_shadow_->end() != begin + static_capacity_ ||
      static_shadow_->granule_shift() != shift)
    static_shadow_ = std::make_unique<ShadowCells>(begin, static_capacity_, shift);
  // The dynamic array's element type is the kernel's choice at each call: byte granules.
  if (dynamic_shadow_ == nullptr || dynamic_shadow_->begin() != begin + static_capacity_ ||
      dynamic_shadow_->end() != begin + static_capacity_ + dynamic_bytes_)
    dynamic_shadow_ = std::make_unique<ShadowCells>(begin + static_capacity_, dynamic_bytes_, 0);
}

void BlockRun::make_fiber(unsigned index) {
  // Whatever a block that threw (out of memory, say) left in the handle is forgotten, not unwound.
  slots_[index].fiber.forget();
  slots_[index].fiber.get() = boost::context::fiber(
      std::allocator_arg, PooledStack{worker_.stacks().stack(index)}, [this, index](boost::context::fiber&& caller) {
        arrived(std::move(caller));
        run_fiber(index);
        // A finished thread hands over as a waiting one does, and its fiber ends; after a failure
        // the scheduler takes over.
        const unsigned next = left_ ? kScheduler : next_ready();
        switching_from_ = index;
        enter(next);
        return std::move(handle(next).get());
      });
}

void BlockRun::run_fiber(unsigned index) noexcept {
  try {
    if (!fibers_) return run_threads_in_a_loop();
    launch_->simt()->run_thread(launch_->args());
    slots_[index].status = Status::Returned;
  } catch (...) {
    // Kernel code throws nothing; this is the engine's own failure (out of memory, say).
    launch_->fail(std::current_exception());
    left_ = true;
  }
}

void BlockRun::run_threads_in_a_loop() {
  const KernelEntry& entry = *launch_->simt();
  if (entry.run_threads != nullptr) entry.run_threads(launch_->args());
  else detail::each_thread(entry.run_thread, launch_->args());
  slots_[0].status = Status::Returned;
}

FiberHandle& BlockRun::handle(unsigned index) { return index == kScheduler ? scheduler_ : slots_[index].fiber; }

void BlockRun::enter(unsigned index) {
  running_ = index;
  if (index == kScheduler) {
    running_thread = nullptr;
    return;
  }
  if (slots_[index].status == Status::NotStarted) slots_[index].status = Status::Ready;
  running_thread = &slots_[index].state;
}

// One jump: `index` resumes where it waited (or starts), and finds this thread's continuation,
// which it keeps in this thread's handle (arrived).
void BlockRun::switch_to(unsigned index) {
  switching_from_ = running_;
  enter(index);
  arrived(std::move(handle(index).get()).resume());
}

void BlockRun::arrived(boost::context::fiber&& caller) { handle(switching_from_).get() = std::move(caller); }

void BlockRun::yield() { switch_to(next_ready()); }

void BlockRun::leave() {
  left_ = true;
  switch_to(kScheduler);
  __builtin_unreachable();  // the block never resumes a thread that left
}

void BlockRun::check_stop() {
  if (launch_->stopping() || (worker_.time_to_read_clock() && launch_->past_deadline())) stop_here();
}

void BlockRun::stop_here() {
  // Another block's failure stops this one quietly; a timeout lists where every block stood.
  if (launch_->timed_out())
    launch_->note_stopped("block " + coordinates_text(block_idx_) + ": " + threads_text());
  leave();
}

void BlockRun::tick() {
  if (launch_->stopping() || launch_->past_deadline()) stop_here();
}

void BlockRun::open_segment() {
  if (!recording_) return;
  if (engine_.segments().open(flat_block_, &segment_)) return;
  // Past the numbers one launch may use: the rest of it runs unchecked (see segments.hpp).
  launch_->stop_checking();
  recording_ = false;
  for (unsigned i = 0; i < threads_; ++i) slots_[i].state.recording = false;
}

// --- Barrier and warp collectives ---------------------------------------------------------------

BlockRun::ThreadSlot& BlockRun::arrive(detail::ThreadState& thread, Status status, const char* what) {
  if (!fibers_)
    fail([&] {
      return KernelError(KernelError::Kind::Unsupported, launch_->kernel(),
                         std::string("reached ") + what + " at " + site_text(thread.file, thread.line) +
                             ", but its CPU entry says it never synchronizes (KernelEntry::synchronizes is "
                             "false), so its threads run one after another and cannot meet; translate it again");
    });
  check_stop();
  ThreadSlot& slot = slots_[thread.local_index];
  slot.status = status;
  slot.wait_file = thread.file;
  slot.wait_line = thread.line;
  return slot;
}

void BlockRun::sync(detail::ThreadState& thread) {
  const ThreadSlot& slot = arrive(thread, Status::AtBarrier, "carbide::block::sync()");
  if (at_barrier_ == 0) barrier_ = &slot;
  else if (!same_site(slot.wait_file, slot.wait_line, barrier_->wait_file, barrier_->wait_line)) barriers_differ_ = true;
  if (++at_barrier_ == threads_) release_barrier();
  yield();
}

void BlockRun::release_barrier() {
  // Every thread waits at a barrier, but not all at one: no barrier will ever be complete.
  if (barriers_differ_) fail([&] { return stuck_error(*barrier_); });
  at_barrier_ = 0;
  open_segment();
  for (unsigned i = 0; i < threads_; ++i) {
    slots_[i].status = Status::Ready;
    make_ready(i);
  }
}

void BlockRun::shuffle(detail::ThreadState& thread, Collective kind, void* value, std::size_t bytes,
                       unsigned operand) {
  ThreadSlot& slot = arrive(thread, Status::AtCollective, collective_name(kind));
  slot.collective = kind;
  slot.value = value;
  slot.bytes = bytes;
  slot.operand = operand;
  const unsigned warp = thread.local_index / kWarp;
  if (++at_collective_[warp] == std::min(kWarp, threads_ - warp * kWarp)) release_warp(warp);
  yield();
}

std::uint32_t BlockRun::vote(detail::ThreadState& thread, Collective kind, bool predicate) {
  ThreadSlot& slot = arrive(thread, Status::AtCollective, collective_name(kind));
  slot.collective = kind;
  slot.bytes = 0;
  slot.predicate = predicate;
  const unsigned warp = thread.local_index / kWarp;
  if (++at_collective_[warp] == std::min(kWarp, threads_ - warp * kWarp)) release_warp(warp);
  yield();
  return slot.vote;
}

void BlockRun::release_warp(unsigned warp) {
  const unsigned first = warp * kWarp, lanes = std::min(kWarp, threads_ - first);
  const ThreadSlot& lead = slots_[first];
  for (unsigned lane = 1; lane < lanes; ++lane) {
    const ThreadSlot& slot = slots_[first + lane];
    if (slot.collective != lead.collective || slot.bytes != lead.bytes ||
        !same_site(slot.wait_file, slot.wait_line, lead.wait_file, lead.wait_line))
      fail([&] { return stuck_error(lead); });
  }
  if (lead.bytes > 0) {  // a shuffle: every lane's value first, then each lane's pick
    exchange_.resize(lanes * lead.bytes);
    for (unsigned lane = 0; lane < lanes; ++lane)
      std::memcpy(exchange_.data() + lane * lead.bytes, slots_[first + lane].value, lead.bytes);
    for (unsigned lane = 0; lane < lanes; ++lane) {
      const ThreadSlot& slot = slots_[first + lane];
      const unsigned source = source_lane(slot.collective, lane, slot.operand, lanes);
      std::memcpy(slot.value, exchange_.data() + source * lead.bytes, lead.bytes);
    }
  } else {
    std::uint32_t ballot = 0;
    for (unsigned lane = 0; lane < lanes; ++lane) ballot |= std::uint32_t(slots_[first + lane].predicate) << lane;
    const std::uint32_t everyone = lanes == kWarp ? ~std::uint32_t(0) : (std::uint32_t(1) << lanes) - 1;
    const std::uint32_t result = lead.collective == Collective::Ballot ? ballot
                                 : lead.collective == Collective::Any  ? std::uint32_t(ballot != 0)
                                                                       : std::uint32_t(ballot == everyone);
    for (unsigned lane = 0; lane < lanes; ++lane) slots_[first + lane].vote = result;
  }
  at_collective_[warp] = 0;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    slots_[first + lane].status = Status::Ready;
    make_ready(first + lane);
  }
}

void BlockRun::report_stuck_threads() {
  for (unsigned i = 0; i < threads_; ++i)
    if (slots_[i].status != Status::Returned) {
      launch_->fail(std::make_exception_ptr(stuck_error(slots_[i])));
      return;
    }
}

// --- Shared memory ----------------------------------------------------------------------------

void* BlockRun::shared_storage(detail::ThreadState& thread, unsigned site, std::size_t bytes) {
  for (const SiteStorage& storage : sites_)
    if (storage.site == site) return arena_.get() + storage.offset;
  const KernelEntry& entry = *launch_->simt();
  const std::size_t offset = align_up(static_used_, kSharedAlignment);
  if (static_counted_ + bytes > entry.static_shared_bytes || offset + bytes > static_capacity_)
    fail([&] {
      return KernelError(KernelError::Kind::Unsupported, entry.name,
                         "block::shared site " + std::to_string(site) + " of " + std::to_string(bytes) + " bytes at " +
                             site_text(thread.file, thread.line) + " takes the block's shared memory to " +
                             std::to_string(static_counted_ + bytes) + " bytes, past the " +
                             std::to_string(entry.static_shared_bytes) +
                             " its CPU entry counts (KernelEntry::static_shared_bytes, which the launch's "
                             "contract check used); translate it again");
    });
  sites_.push_back({site, offset, bytes});
  static_used_ = offset + bytes;
  static_counted_ += bytes;
  return arena_.get() + offset;
}

void* BlockRun::dynamic_shared_storage(std::size_t* bytes) {
  *bytes = dynamic_bytes_;
  return arena_.get() + static_capacity_;
}

// --- The race check -----------------------------------------------------------------------------

void BlockRun::record(detail::ThreadState& thread, Use use, const void* address, std::size_t bytes, const char* file,
                      unsigned line) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  const auto arena = reinterpret_cast<std::uintptr_t>(arena_.get());
  ShadowCells* cells = nullptr;
  bool concurrent = false;
  if (at - arena < static_capacity_) {
    cells = static_shadow_.get();
  } else if (at - arena - static_capacity_ < dynamic_bytes_) {
    cells = dynamic_shadow_.get();
  } else {
    cells = launch_->shadow_of(at);
    concurrent = true;
  }
  if (cells == nullptr) {
    if (bytes == 0) return;  // an empty piece touches nothing
    // Neither a buffer of the launch nor the block's shared memory: the thread's own locals, or a
    // read of the program's constants. Anything else (past a buffer's end, another allocation)
    // is an access the device would make to memory the launch was not given.
    if (on_a_thread_stack(at, bytes, worker_.stacks()) || (use == Use::Read && in_static_storage(at, bytes))) return;
    fail([&] { return outside_error(thread, use, at, bytes, file, line); });
  }
  const Accessor me{segment_, flat_block_, thread.local_index, worker_.sites().number(engine_.sites(), file, line)};
  if (auto earlier = cells->record(at, bytes, use, me, engine_.segments(), concurrent))
    fail([&] { return race_error(*earlier, me, use, at); });
}

// --- Messages -----------------------------------------------------------------------------------

std::string BlockRun::name_address(std::uintptr_t address) const {
  if (auto in_view = launch_->name_in_views(address)) return *in_view;
  const auto arena = reinterpret_cast<std::uintptr_t>(arena_.get());
  const KernelEntry& entry = *launch_->simt();
  for (const SiteStorage& storage : sites_) {
    const std::uintptr_t begin = arena + storage.offset;
    if (address < begin || address >= begin + storage.bytes) continue;
    for (unsigned i = 0; i < entry.shared_site_count; ++i) {
      const SharedSite& site = entry.shared_sites[i];
      if (site.site != storage.site || site.element_bytes == 0) continue;
      const std::string name = *site.name != '\0' ? site.name : "shared array " + std::to_string(site.site);
      return name + "[" + std::to_string((address - begin) / site.element_bytes) + "]";
    }
    return "byte " + std::to_string(address - begin) + " of shared array " + std::to_string(storage.site);
  }
  if (address - arena - static_capacity_ < dynamic_bytes_)
    return "byte " + std::to_string(address - arena - static_capacity_) + " of the dynamic shared memory";
  char text[32];
  std::snprintf(text, sizeof text, "address %#llx", static_cast<unsigned long long>(address));
  return text;
}

std::string BlockRun::name_view(const void* data) const {
  if (const ViewParam* view = launch_->view_with_data(data)) return std::string("'") + view->name + "'";
  const auto at = reinterpret_cast<std::uintptr_t>(data);
  const auto arena = reinterpret_cast<std::uintptr_t>(arena_.get());
  if (at - arena < static_capacity_ + dynamic_bytes_) {
    const std::string place = name_address(at);  // "tile[0]"
    return "'" + place.substr(0, place.rfind('[')) + "'";
  }
  return "a view";
}

std::string BlockRun::where(const ThreadSlot& slot) const {
  switch (slot.status) {
    case Status::NotStarted: return "had not started";
    case Status::Ready: return "ran at " + site_text(slot.state.file, slot.state.line);
    case Status::AtBarrier: return "waited at the barrier at " + site_text(slot.wait_file, slot.wait_line);
    case Status::AtCollective:
      return std::string("waited at ") + collective_name(slot.collective) + " at " +
             site_text(slot.wait_file, slot.wait_line);
    case Status::Returned: return "had returned";
  }
  return "";
}

// The block's threads grouped by where they are: "thread (3,0,0) ran at k.cpp:12; 3 had returned".
std::string BlockRun::threads_text() const {
  if (!fibers_) {  // one after another: those before the loop's thread returned, those after it wait
    const detail::ThreadState& state = slots_[0].state;
    std::string text = "thread " + coordinates_text(state.thread_idx) + " ran at " + site_text(state.file, state.line);
    if (state.local_index > 0) text += "; " + std::to_string(state.local_index) + " had returned";
    if (state.local_index + 1 < threads_)
      text += "; " + std::to_string(threads_ - state.local_index - 1) + " had not started";
    return text;
  }
  std::map<std::string, std::vector<unsigned>> groups;
  for (unsigned i = 0; i < threads_; ++i) groups[where(slots_[i])].push_back(i);
  std::string text;
  for (const auto& [place, members] : groups) {
    if (!text.empty()) text += "; ";
    if (members.size() == 1) text += "thread " + coordinates_text(thread_coordinates(members[0], launch_->block()));
    else text += std::to_string(members.size()) + " threads";
    text += " " + place;
  }
  return text;
}

KernelError::Access BlockRun::position(const ThreadSlot& slot, KernelError::AccessKind kind) const {
  const bool waits = kind == KernelError::AccessKind::Wait;
  return {waits ? slot.wait_file : slot.state.file, waits ? slot.wait_line : slot.state.line, as_array(block_idx_),
          as_array(slot.state.thread_idx), kind};
}

KernelError BlockRun::outside_error(const detail::ThreadState& thread, Use use, std::uintptr_t address,
                                    std::size_t bytes, const char* file, unsigned line) const {
  char where[32];
  std::snprintf(where, sizeof where, "%#llx", static_cast<unsigned long long>(address));
  const char* noun = use == Use::Read ? "read" : use == Use::Write ? "write" : "update";
  const std::string message = "a raw " + std::string(noun) + " of " + std::to_string(bytes) +
                              " bytes at address " + where +
                              " lies outside every buffer of the launch, the block's shared memory and the "
                              "thread's own locals, at " + site_text(file, line) + " in block " +
                              coordinates_text(block_idx_) + " thread " + coordinates_text(thread.thread_idx);
  return KernelError(KernelError::Kind::IndexOutOfRange, launch_->kernel(), message,
                     {{file != nullptr ? file : "", line, as_array(block_idx_), as_array(thread.thread_idx),
                       access_kind(use)}},
                     where);
}

KernelError BlockRun::race_error(const Remembered& earlier, const Accessor& me, Use use,
                                 std::uintptr_t address) const {
  const Site mine = engine_.sites().site(me.site), theirs = engine_.sites().site(earlier.site);
  const Coordinates my_thread = thread_coordinates(me.thread, launch_->block());
  const Coordinates their_block = block_coordinates(earlier.block, launch_->grid());
  const Coordinates their_thread = thread_coordinates(earlier.thread, launch_->block());
  const bool same_block = earlier.block == me.block;
  std::string them;
  if (same_block && earlier.several && earlier.thread == me.thread) them = "other threads of the block";
  else if (same_block) them = "thread " + coordinates_text(their_thread) + " of the same block";
  else them = "block " + coordinates_text(their_block) + " thread " + coordinates_text(their_thread);
  if (earlier.several && !(same_block && earlier.thread == me.thread)) them += " (among other threads)";
  const std::string location = name_address(address);
  const std::string message =
      "data race on " + location + ": block " + coordinates_text(block_idx_) + " thread " + coordinates_text(my_thread) +
      " " + present(use) + " it at " + site_text(mine.file, mine.line) + ", and " + them + " " + past(earlier.use) +
      " it at " + site_text(theirs.file, theirs.line) +
      (same_block ? ", with no carbide::block::sync() between them"
                  : "; the blocks of a launch never synchronize with each other, so no order between them holds");
  std::vector<KernelError::Access> accesses = {
      {theirs.file, theirs.line, as_array(their_block), as_array(their_thread), access_kind(earlier.use)},
      {mine.file, mine.line, as_array(block_idx_), as_array(my_thread), access_kind(use)}};
  return KernelError(KernelError::Kind::DataRace, launch_->kernel(), message, std::move(accesses), location);
}

// Some threads wait where the others never come: at a barrier (or a barrier elsewhere), or at a
// warp collective that lanes of their warp do not reach. `first` is the first waiting thread.
KernelError BlockRun::stuck_error(const ThreadSlot& first) const {
  const bool barrier = first.status == Status::AtBarrier;
  const unsigned begin = barrier ? 0 : first.state.local_index / kWarp * kWarp;
  const unsigned count = barrier ? threads_ : std::min(kWarp, threads_ - begin);
  const std::string place =
      barrier ? "the barrier at " + site_text(first.wait_file, first.wait_line)
              : std::string(collective_name(first.collective)) + " at " + site_text(first.wait_file, first.wait_line);
  unsigned there = 0;
  std::map<std::string, unsigned> elsewhere;
  for (unsigned i = begin; i < begin + count; ++i) {
    const ThreadSlot& slot = slots_[i];
    if (slot.status == first.status && slot.collective == first.collective &&
        same_site(slot.wait_file, slot.wait_line, first.wait_file, first.wait_line))
      ++there;
    else
      ++elsewhere[where(slot)];
  }
  std::string others;
  for (const auto& [place_of_others, number] : elsewhere)
    others += (others.empty() ? "" : "; ") + std::to_string(number) + " " + place_of_others;
  const std::string group = barrier ? "of the block's " + std::to_string(count) + " threads"
                                    : "of the " + std::to_string(count) + " lanes of warp " +
                                          std::to_string(begin / kWarp);
  return KernelError(barrier ? KernelError::Kind::DivergentBarrier : KernelError::Kind::DivergentCollective,
                     launch_->kernel(),
                     "block " + coordinates_text(block_idx_) + ": " + place + " was reached by " + std::to_string(there) +
                         " " + group + "; the others will never reach it: " + others,
                     {position(first, KernelError::AccessKind::Wait)});
}

}  // namespace carbide::cpu
