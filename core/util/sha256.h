#pragma once
// SHA-256 (FIPS 180-4), small and dependency-free: the report's bundle inventory fingerprints every
// file without pulling a crypto library into the engine.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace rl
{

class Sha256
{
public:
    Sha256();
    void update(std::string_view data);
    // Finishes the hash; the object must not be updated afterwards.
    std::array<std::uint8_t, 32> digest();
    std::string hexDigest();

private:
    void block(const std::uint8_t* p);

    std::array<std::uint32_t, 8> m_h;
    std::array<std::uint8_t, 64> m_buf{};
    std::size_t m_used = 0;
    std::uint64_t m_bytes = 0;
};

// Lower-case hex SHA-256 of `data`.
std::string sha256Hex(std::string_view data);

} // namespace rl
