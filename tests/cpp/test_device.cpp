// The unsupported-architecture error, on simulated devices.
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

}  // namespace
