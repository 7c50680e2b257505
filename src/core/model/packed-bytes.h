/*
 * Plain values packed one after the other into bytes, and read back in the same order: what
 * the processes of a distributed run send each other once the simulation is over.
 */
#ifndef MCAST4AI_PACKED_BYTES_H
#define MCAST4AI_PACKED_BYTES_H

#include "ns3/abort.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * \brief A byte string values are appended to (Put) and taken from in order (Take).
 *
 * Values are copied as their bytes: writer and reader are the same program on the same kind
 * of machine (the ranks of one mpirun). Reading past the end aborts: the two sides disagree.
 */
class PackedBytes
{
public:
    PackedBytes() = default;
    explicit PackedBytes(std::vector<uint8_t> bytes)
        : m_bytes(std::move(bytes))
    {
    }

    template<class T>
    void Put(const T& value)
    {
        static_assert(std::is_trivially_copyable<T>::value, "PackedBytes copies bytes");
        const std::size_t at = m_bytes.size();
        m_bytes.resize(at + sizeof(T));
        std::memcpy(m_bytes.data() + at, &value, sizeof(T));
    }

    void PutString(const std::string& s)
    {
        Put<uint64_t>(s.size());
        m_bytes.insert(m_bytes.end(), s.begin(), s.end());
    }

    /// Room for n bytes at the end, for the caller to write (a serialisation of known size).
    uint8_t* PutRaw(std::size_t n)
    {
        const std::size_t at = m_bytes.size();
        m_bytes.resize(at + n);
        return m_bytes.data() + at;
    }

    template<class T>
    T Take()
    {
        static_assert(std::is_trivially_copyable<T>::value, "PackedBytes copies bytes");
        NS_ABORT_MSG_IF(m_read + sizeof(T) > m_bytes.size(), "PackedBytes: read past the end");
        T value;
        std::memcpy(&value, m_bytes.data() + m_read, sizeof(T));
        m_read += sizeof(T);
        return value;
    }

    std::string TakeString()
    {
        const auto n = Take<uint64_t>();
        return std::string(reinterpret_cast<const char*>(TakeRaw(n)), n);
    }

    /// The next n bytes, as they were put (valid until the next Put).
    const uint8_t* TakeRaw(std::size_t n)
    {
        NS_ABORT_MSG_IF(m_read + n > m_bytes.size(), "PackedBytes: read past the end");
        const uint8_t* at = m_bytes.data() + m_read;
        m_read += n;
        return at;
    }

    /// Everything read.
    bool AtEnd() const
    {
        return m_read == m_bytes.size();
    }

    const std::vector<uint8_t>& GetBytes() const
    {
        return m_bytes;
    }

    /// Empty again, keeping the memory (for a buffer filled again and again).
    void Clear()
    {
        m_bytes.clear();
        m_read = 0;
    }

private:
    std::vector<uint8_t> m_bytes;
    std::size_t m_read{0};
};

} // namespace ns3

#endif // MCAST4AI_PACKED_BYTES_H
