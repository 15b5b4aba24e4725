// How much of a long randomised test runs in this build. The unit tier runs twice in CI:
// in release, with every input, and under AddressSanitizer + UBSan (about forty times
// slower on JSON-heavy work), where a share of the same inputs looks for memory errors.

#pragma once

#include <algorithm>

namespace pathscope::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// `n` in a plain build; n / divisor (at least 1) under the sanitizers.
constexpr int sanitized_share(int n, int divisor) { return kSanitized ? std::max(1, n / divisor) : n; }

}  // namespace pathscope::test
