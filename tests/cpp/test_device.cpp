// The unsupported-architecture error, on simulated devices, and the DRAM bandwidth read off one.
#include <gtest/gtest.h>

#include <string>

#include "cake/errors.h"
#include "launch/device.h"

namespace {

TEST(Device, UnsupportedArchitectureNamesTheComputeCapability) {
  for (auto [major, minor] : {std::pair{8, 9}, {12, 0}, {12, 1}, {8, 0}}) {
    cake::DeviceInfo info;
    info.major = major, info.minor = minor, info.sms = 100;
    try {
      cake::require_arch(info);
      ADD_FAILURE() << "accepted " << major << "." << minor;
    } catch (const cake::UnsupportedArchitecture& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("compute capability " + std::to_string(major) + "." + std::to_string(minor)),
                std::string::npos) << msg;
      EXPECT_NE(msg.find("9.0"), std::string::npos) << msg;
      EXPECT_NE(msg.find("10.3"), std::string::npos) << msg;
      EXPECT_TRUE(dynamic_cast<const std::runtime_error*>(&e) != nullptr);
    }
  }
  cake::DeviceInfo h200;
  h200.major = 9, h200.minor = 0, h200.arch = cake::Arch::SM90;
  EXPECT_EQ(cake::require_arch(h200), cake::Arch::SM90);
}

// The plan's DRAM bandwidth from the runtime's memory clock and bus width: a 2619 MHz
// clock on 5120 bits (an H100 SXM's HBM3, 3.35 TB/s by its specification) is 3352
// GB/s; either unreported is unknown (0), which plans as for the H200.
TEST(Device, DramBandwidthFromClockAndBusWidth) {
  EXPECT_EQ(cake::dram_gbps(2619000, 5120), 3352);
  EXPECT_EQ(cake::dram_gbps(3201000, 6144), 4916);
  EXPECT_EQ(cake::dram_gbps(0, 5120), 0);
  EXPECT_EQ(cake::dram_gbps(2619000, 0), 0);
  EXPECT_EQ(cake::dram_gbps(-1, 5120), 0);
}

}  // namespace
