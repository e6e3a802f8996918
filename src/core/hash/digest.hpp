#pragma once
// A message digest (SHA-256 by default) computed by OpenSSL's libcrypto through its EVP
// interface. libcrypto is opened with dlopen the first time a digest is made (see
// base/shared_library.hpp): commands that never hash never load it.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace zanj::hash {

/// The algorithms `zanj hash --algorithm` offers, default first: names OpenSSL knows.
const std::vector<std::string>& digest_algorithms();

/// One running digest. Move-only.
class Digest {
 public:
  /// Starts a digest of `algorithm` (one of digest_algorithms()). Throws Error (usage) for
  /// another name, or when libcrypto cannot be opened.
  explicit Digest(std::string_view algorithm);
  ~Digest();
  Digest(Digest&&) noexcept;
  Digest& operator=(Digest&&) noexcept;

  void update(std::string_view bytes);
  /// The digest's bytes; the object then starts over for a new message.
  std::string finish();
  /// Bytes in a finished digest (32 for SHA-256).
  std::size_t size() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Lowercase hexadecimal, two digits per byte.
std::string hex_text(std::string_view bytes);

}  // namespace zanj::hash
