// The profile on disk: written whole (WholeFile.hpp), read through ProfileReader.
#include "vcmon/tables/Profile.hpp"
#include "vcmon/tables/ProfileReader.hpp"
#include "vcmon/tables/WholeFile.hpp"

#include <system_error>

namespace vcmon::tables {

void write_profile_file(const Profile& profile, const std::filesystem::path& path,
                        const JobSummary* summary) {
  const std::vector<std::byte> bytes = encode_profile(profile, summary);
  try {
    write_file_replacing(path, bytes, "profile");
  } catch (const std::system_error& error) {
    throw ProfileError(error.what());
  }
}

std::filesystem::path write_new_profile_file(const Profile& profile,
                                             const std::filesystem::path& dir,
                                             std::string_view stem) {
  const std::vector<std::byte> bytes = encode_profile(profile);
  try {
    return write_new_file(dir, stem, ".vcmon", bytes, "profile");
  } catch (const std::system_error& error) {
    throw ProfileError(error.what());
  }
}

Profile read_profile_file(const std::filesystem::path& path) {
  return ProfileReader(path).read_all();
}

} // namespace vcmon::tables
