/*
 * BIER BitString: numbering and wire order in bit-string.h.
 */
#include "wire/model/bit-string.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BitString");

BitString::BitString(uint32_t lengthBits)
    : m_length(lengthBits),
      m_words(lengthBits / 64, 0)
{
    NS_ABORT_MSG_UNLESS(IsValidLength(lengthBits),
                        "BitString length must be a power of two in 64..4096, not " << lengthBits);
}

bool
BitString::IsValidLength(uint32_t bits)
{
    return bits >= MIN_BITS && bits <= MAX_BITS && (bits & (bits - 1)) == 0;
}

uint32_t
BitString::Length() const
{
    return m_length;
}

uint32_t
BitString::SizeBytes() const
{
    return m_length / 8;
}

void
BitString::Set(uint32_t bit)
{
    NS_ASSERT_MSG(bit < m_length, "bit " << bit << " outside a " << m_length << "-bit string");
    m_words[bit / 64] |= uint64_t{1} << (bit % 64);
}

void
BitString::Clear(uint32_t bit)
{
    NS_ASSERT_MSG(bit < m_length, "bit " << bit << " outside a " << m_length << "-bit string");
    m_words[bit / 64] &= ~(uint64_t{1} << (bit % 64));
}

bool
BitString::Test(uint32_t bit) const
{
    NS_ASSERT_MSG(bit < m_length, "bit " << bit << " outside a " << m_length << "-bit string");
    return (m_words[bit / 64] >> (bit % 64)) & 1;
}

void
BitString::Reset()
{
    std::fill(m_words.begin(), m_words.end(), 0);
}

bool
BitString::Any() const
{
    for (uint64_t w : m_words)
    {
        if (w != 0)
        {
            return true;
        }
    }
    return false;
}

uint32_t
BitString::Count() const
{
    uint32_t n = 0;
    for (uint64_t w : m_words)
    {
        n += static_cast<uint32_t>(__builtin_popcountll(w));
    }
    return n;
}

uint32_t
BitString::LowestSet() const
{
    const uint32_t n = static_cast<uint32_t>(m_words.size());
    for (uint32_t w = 0; w < n; ++w)
    {
        if (m_words[w] != 0)
        {
            return w * 64 + static_cast<uint32_t>(__builtin_ctzll(m_words[w]));
        }
    }
    return m_length;
}

BitString
BitString::operator&(const BitString& other) const
{
    BitString out(*this);
    out &= other;
    return out;
}

BitString
BitString::operator|(const BitString& other) const
{
    BitString out(*this);
    out |= other;
    return out;
}

BitString&
BitString::operator&=(const BitString& other)
{
    NS_ASSERT_MSG(m_length == other.m_length,
                  "BitString lengths differ: " << m_length << " vs " << other.m_length);
    const size_t common = std::min(m_words.size(), other.m_words.size());
    for (size_t w = 0; w < common; ++w)
    {
        m_words[w] &= other.m_words[w];
    }
    std::fill(m_words.begin() + common, m_words.end(), 0);
    return *this;
}

BitString&
BitString::operator|=(const BitString& other)
{
    NS_ASSERT_MSG(m_length == other.m_length,
                  "BitString lengths differ: " << m_length << " vs " << other.m_length);
    const size_t common = std::min(m_words.size(), other.m_words.size());
    for (size_t w = 0; w < common; ++w)
    {
        m_words[w] |= other.m_words[w];
    }
    return *this;
}

BitString
BitString::AndNot(const BitString& other) const
{
    BitString out(*this);
    out.AndNotAssign(other);
    return out;
}

BitString&
BitString::AndNotAssign(const BitString& other)
{
    NS_ASSERT_MSG(m_length == other.m_length,
                  "BitString lengths differ: " << m_length << " vs " << other.m_length);
    const size_t common = std::min(m_words.size(), other.m_words.size());
    for (size_t w = 0; w < common; ++w)
    {
        m_words[w] &= ~other.m_words[w];
    }
    return *this;
}

bool
BitString::Intersects(const BitString& other) const
{
    NS_ASSERT_MSG(m_length == other.m_length,
                  "BitString lengths differ: " << m_length << " vs " << other.m_length);
    const size_t common = std::min(m_words.size(), other.m_words.size());
    for (size_t w = 0; w < common; ++w)
    {
        if ((m_words[w] & other.m_words[w]) != 0)
        {
            return true;
        }
    }
    return false;
}

bool
BitString::operator==(const BitString& other) const
{
    return m_length == other.m_length && m_words == other.m_words;
}

bool
BitString::operator!=(const BitString& other) const
{
    return !(*this == other);
}

const std::vector<uint64_t>&
BitString::Words() const
{
    return m_words;
}

void
BitString::AssignWords(const uint64_t* words)
{
    std::copy(words, words + m_words.size(), m_words.begin());
}

void
BitString::Serialize(Buffer::Iterator& i) const
{
    NS_LOG_FUNCTION(this);
    // The last word holds the highest indices, which the RFC puts in the first octets.
    for (auto w = m_words.rbegin(); w != m_words.rend(); ++w)
    {
        i.WriteHtonU64(*w);
    }
}

void
BitString::Deserialize(Buffer::Iterator& i)
{
    NS_LOG_FUNCTION(this);
    for (auto w = m_words.rbegin(); w != m_words.rend(); ++w)
    {
        *w = i.ReadNtohU64();
    }
}

void
BitString::WriteBytes(uint8_t* out) const
{
    for (auto w = m_words.rbegin(); w != m_words.rend(); ++w)
    {
        for (int shift = 56; shift >= 0; shift -= 8)
        {
            *out++ = static_cast<uint8_t>(*w >> shift);
        }
    }
}

void
BitString::ReadBytes(const uint8_t* in)
{
    for (auto w = m_words.rbegin(); w != m_words.rend(); ++w)
    {
        uint64_t v = 0;
        for (int b = 0; b < 8; ++b)
        {
            v = (v << 8) | *in++;
        }
        *w = v;
    }
}

std::string
BitString::ToHex() const
{
    static const char* const digits = "0123456789abcdef";
    std::string s;
    s.reserve(SizeBytes() * 2);
    for (auto w = m_words.rbegin(); w != m_words.rend(); ++w)
    {
        for (int shift = 60; shift >= 0; shift -= 4)
        {
            s.push_back(digits[(*w >> shift) & 0xF]);
        }
    }
    return s;
}

std::ostream&
operator<<(std::ostream& os, const BitString& bs)
{
    os << bs.Length() << ":{";
    bool first = true;
    bs.ForEachSet(
        [&os, &first](uint32_t k)
        {
            os << (first ? "" : ",") << k;
            first = false;
        });
    return os << "}";
}

} // namespace ns3
