// Bridge reservations (seed 004: one platoon at a time on a bridge): hand cases, and a
// random sequence of calls against a plain list of (bridge, group) pairs.

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "planner/world/bridge_reservations.hpp"

using namespace pathscope;

TEST_SUITE("world") {
  TEST_CASE("bridge reservations: one group at a time, the holder named, released by its holder only") {
    BridgeReservations r;
    CHECK_FALSE(r.holder(1));
    const BridgeReservation a = r.reserve(1, 10);
    CHECK(a.granted);
    CHECK(a.holder == 10);
    const BridgeReservation again = r.reserve(1, 10);  // idempotent
    CHECK(again.granted);
    const BridgeReservation b = r.reserve(1, 20);  // held: wait
    CHECK_FALSE(b.granted);
    CHECK(b.holder == 10);
    CHECK(r.reserve(2, 20).granted);  // another bridge is free
    CHECK_FALSE(r.release(1, 20));    // not the holder: nothing changes
    CHECK(*r.holder(1) == 10);
    CHECK(r.release(1, 10));
    CHECK_FALSE(r.holder(1));
    CHECK(r.reserve(1, 20).granted);  // now the waiting group gets it
    CHECK(r.held_by(20) == std::vector<std::uint32_t>{1, 2});
    CHECK(r.release_all(20) == 2);
    CHECK(r.size() == 0);
    CHECK(r.reserve(3, 30).granted);
    CHECK(r.clear(3));  // the bridge destroyed: freed whoever held it
    CHECK_FALSE(r.clear(3));
  }

  TEST_CASE(
      "bridge reservations: random calls agree with a list of pairs, and replays give the same answers") {
    const auto run = [](std::uint64_t seed) {
      std::mt19937_64 rng(seed);
      BridgeReservations r;
      std::vector<std::pair<std::uint32_t, std::uint32_t>> model;  // (bridge, group)
      std::vector<int> answers;
      for (int step = 0; step < 3000; ++step) {
        const std::uint32_t bridge = std::uint32_t(rng() % 6), group = std::uint32_t(rng() % 5);
        const auto held =
            std::find_if(model.begin(), model.end(), [&](const auto& p) { return p.first == bridge; });
        switch (rng() % 5) {
          case 0:
          case 1: {
            const BridgeReservation got = r.reserve(bridge, group);
            const bool free = held == model.end();
            CHECK(got.granted == (free || held->second == group));
            CHECK(got.holder == (free ? group : held->second));
            if (free) model.emplace_back(bridge, group);
            answers.push_back(int(got.granted) * 100 + int(got.holder));
            break;
          }
          case 2: {
            const bool ok = held != model.end() && held->second == group;
            CHECK(r.release(bridge, group) == ok);
            if (ok) model.erase(held);
            answers.push_back(ok);
            break;
          }
          case 3: {
            const std::size_t n = std::size_t(
                std::count_if(model.begin(), model.end(), [&](const auto& p) { return p.second == group; }));
            CHECK(r.release_all(group) == n);
            std::erase_if(model, [&](const auto& p) { return p.second == group; });
            answers.push_back(int(n));
            break;
          }
          default: {
            const auto h = r.holder(bridge);
            CHECK(h.has_value() == (held != model.end()));
            if (h) CHECK(*h == held->second);
            std::vector<std::uint32_t> mine;
            for (const auto& [b, g] : model) {
              if (g == group) mine.push_back(b);
            }
            std::sort(mine.begin(), mine.end());
            CHECK(r.held_by(group) == mine);
            answers.push_back(h ? int(*h) : -1);
          }
        }
        CHECK(r.size() == model.size());
      }
      return answers;
    };
    CHECK(run(7) == run(7));
  }

}  // TEST_SUITE
