#include "program_cache.hpp"

#include "encore/graph/error.hpp"

namespace encore::cache {

struct program_cache::slot {
    enum class state { building, ready, failed } current = state::building;
    std::type_index type;
    std::shared_ptr<const void> object;
    std::uint64_t bytes = 0;
    std::exception_ptr failure;
    std::list<std::string>::iterator position; // in recency_, once ready

    explicit slot(std::type_index t) : type(t) {}
};

program_cache::program_cache(std::uint64_t max_bytes, persistent_cache* disk) : max_bytes_(max_bytes), disk_(disk) {}

program_cache& program_cache::process() {
    static program_cache instance(settings::from_environment().max_memory_bytes, &persistent_cache::process());
    return instance;
}

std::shared_ptr<const void> program_cache::get_or_build_erased(const program_key& key, std::type_index type,
                                                               const std::function<built_program()>& build,
                                                               const erased_load& load) {
    std::string canonical = serialize(key);
    std::shared_ptr<slot> mine;
    {
        std::unique_lock lock(mutex_);
        auto found = slots_.find(canonical);
        if (found != slots_.end()) {
            std::shared_ptr<slot> s = found->second;
            built_.wait(lock, [&] { return s->current != slot::state::building; });
            if (s->current == slot::state::failed) std::rethrow_exception(s->failure);
            if (s->type != type)
                throw error(errc::invalid_argument, "program cache: the program '" + key.name +
                                                        "' is held as another type than the one asked for");
            if (s->position != recency_.begin()) recency_.splice(recency_.begin(), recency_, s->position);
            ++statistics_.memory_hits;
            return s->object;
        }
        mine = std::make_shared<slot>(type);
        slots_.emplace(canonical, mine);
    }

    // This thread builds; the others wait on built_.
    try {
        built_program program;
        bool from_disk = false;
        if (disk_) {
            if (auto stored = disk_->load(canonical)) {
                program.payload = std::move(stored->payload);
                program.log = std::move(stored->log);
                program.from_disk = from_disk = true;
            }
        }
        std::shared_ptr<const void> object;
        if (from_disk) {
            // A binary the driver refuses (it changed in a way the key did not capture) is built again.
            try {
                object = load(program);
            } catch (const std::exception&) {
                from_disk = false;
            }
        }
        if (!from_disk) {
            {
                std::lock_guard lock(mutex_);
                ++statistics_.builds;
            }
            program = build();
            program.from_disk = false;
            if (disk_) disk_->store(canonical, program.log, program.payload);
            object = load(program);
        }
        if (!object) throw error(errc::backend_failure, "program cache: loading '" + key.name + "' gave nothing");

        std::lock_guard lock(mutex_);
        if (from_disk) ++statistics_.disk_hits;
        mine->object = std::move(object);
        mine->bytes = program.payload.size() + program.log.size();
        mine->current = slot::state::ready;
        recency_.push_front(canonical);
        mine->position = recency_.begin();
        statistics_.bytes += mine->bytes;
        ++statistics_.programs;
        std::shared_ptr<const void> result = mine->object;
        evict_locked();
        built_.notify_all();
        return result;
    } catch (...) {
        std::lock_guard lock(mutex_);
        ++statistics_.failed_builds;
        mine->current = slot::state::failed;
        mine->failure = std::current_exception();
        slots_.erase(canonical);
        built_.notify_all();
        throw;
    }
}

void program_cache::evict_locked() {
    while (statistics_.bytes > max_bytes_ && !recency_.empty()) {
        auto found = slots_.find(recency_.back());
        statistics_.bytes -= found->second->bytes;
        --statistics_.programs;
        ++statistics_.evictions;
        slots_.erase(found);
        recency_.pop_back();
    }
}

cache_statistics program_cache::statistics() const {
    std::lock_guard lock(mutex_);
    return statistics_;
}

void program_cache::clear() {
    std::lock_guard lock(mutex_);
    for (const auto& canonical : recency_)
        slots_.erase(canonical);
    recency_.clear();
    statistics_.bytes = 0;
    statistics_.programs = 0;
}

} // namespace encore::cache
