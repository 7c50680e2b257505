#include "wire/model/fabric-address.h"

#include "wire/model/frame-info.h"

namespace ns3
{

Ipv4Address
FabricAddress::HostIpv4(uint32_t host)
{
    return Ipv4Address(FrameInfo::HOST_ADDRESS_BASE + host);
}

Mac48Address
FabricAddress::HostMac(uint32_t host)
{
    uint8_t b[6] = {0x02,
                    0x00,
                    static_cast<uint8_t>(host >> 24),
                    static_cast<uint8_t>(host >> 16),
                    static_cast<uint8_t>(host >> 8),
                    static_cast<uint8_t>(host)};
    Mac48Address mac;
    mac.CopyFrom(b);
    return mac;
}

uint32_t
FabricAddress::GroupIpv4(uint32_t groupQpn)
{
    return 0xEF000000u | (groupQpn & 0xFFFFFF);
}

uint32_t
FabricAddress::SwitchIpv4(uint32_t switchIndex)
{
    return 0x0A800000u + switchIndex;
}

} // namespace ns3
