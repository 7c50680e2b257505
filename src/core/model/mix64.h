/*
 * The 64-bit finaliser of splitmix64: every input bit affects every output bit. The hashes
 * that pick paths (ECMP, multicast trees, BIER entropy) are built on it, so that the same
 * flow makes the same choice on every platform and C++ library.
 */
#ifndef MCAST4AI_MIX64_H
#define MCAST4AI_MIX64_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

inline uint64_t
Mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/// The 53 high bits of a 64-bit draw as a double in [0, 1): the same value on every platform.
inline double
UnitInterval(uint64_t x)
{
    return static_cast<double>(x >> 11) * 0x1.0p-53;
}

/**
 * A hasher for unordered containers whose keys pack fields into bit ranges (host << 24 | QPN):
 * with the library's identity hash such keys can share one bucket (2^24 + 1 = 97 * 257 * 673,
 * and 257 is a bucket count).
 */
struct Mix64Hash
{
    std::size_t operator()(uint64_t x) const
    {
        return static_cast<std::size_t>(Mix64(x));
    }
};

} // namespace ns3

#endif /* MCAST4AI_MIX64_H */
