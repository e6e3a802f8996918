#include "hash/digest.hpp"

#include <openssl/evp.h>

#include "base/shared_library.hpp"
#include "zanj/error.hpp"

namespace zanj::hash {
namespace {

/// The EVP functions zanj uses, looked up once per process.
struct Evp {
  decltype(EVP_MD_fetch)* md_fetch;
  decltype(EVP_MD_free)* md_free;
  decltype(EVP_MD_CTX_new)* ctx_new;
  decltype(EVP_MD_CTX_free)* ctx_free;
  decltype(EVP_DigestInit_ex)* init;
  decltype(EVP_DigestUpdate)* update;
  decltype(EVP_DigestFinal_ex)* final;
  decltype(EVP_MD_get_size)* md_size;
};

const Evp& evp() {
  static const Evp functions = [] {
    const base::SharedLibrary& crypto = base::SharedLibrary::load("hashing", {"libcrypto.so.3"});
    return Evp{crypto.symbol<decltype(EVP_MD_fetch)>("EVP_MD_fetch"),
               crypto.symbol<decltype(EVP_MD_free)>("EVP_MD_free"),
               crypto.symbol<decltype(EVP_MD_CTX_new)>("EVP_MD_CTX_new"),
               crypto.symbol<decltype(EVP_MD_CTX_free)>("EVP_MD_CTX_free"),
               crypto.symbol<decltype(EVP_DigestInit_ex)>("EVP_DigestInit_ex"),
               crypto.symbol<decltype(EVP_DigestUpdate)>("EVP_DigestUpdate"),
               crypto.symbol<decltype(EVP_DigestFinal_ex)>("EVP_DigestFinal_ex"),
               crypto.symbol<decltype(EVP_MD_get_size)>("EVP_MD_get_size")};
  }();
  return functions;
}

}  // namespace

const std::vector<std::string>& digest_algorithms() {
  static const std::vector<std::string> names{"sha256", "sha512", "sha3-256", "blake2b512"};
  return names;
}

struct Digest::Impl {
  // Fetched once, explicitly: a digest by name (EVP_get_digestbyname) makes every
  // EVP_DigestInit_ex fetch the implementation again, under the provider store's lock, and
  // hash restarts a digest for each node of the tree (that fetch was 20% of hashing a
  // 264,000-key document).
  EVP_MD* md = nullptr;
  EVP_MD_CTX* ctx = nullptr;
  std::size_t size = 0;
  ~Impl() {
    if (ctx) evp().ctx_free(ctx);
    if (md) evp().md_free(md);
  }
  void start() {
    if (evp().init(ctx, md, nullptr) != 1) throw Error("hashing: EVP_DigestInit_ex failed", Exit::usage);
  }
};

Digest::Digest(std::string_view algorithm) : impl_(std::make_unique<Impl>()) {
  bool offered = false;
  for (const auto& name : digest_algorithms()) offered = offered || name == algorithm;
  std::string choices;
  for (const auto& name : digest_algorithms()) choices += (choices.empty() ? "" : ", ") + name;
  if (!offered)
    throw Error("unknown hash algorithm '" + std::string(algorithm) + "' (choose " + choices + ")", Exit::usage);
  const Evp& f = evp();
  impl_->md = f.md_fetch(nullptr, std::string(algorithm).c_str(), nullptr);
  if (!impl_->md) throw Error("hashing: libcrypto does not offer " + std::string(algorithm), Exit::usage);
  impl_->size = static_cast<std::size_t>(f.md_size(impl_->md));
  impl_->ctx = f.ctx_new();
  if (!impl_->ctx) throw Error("hashing: out of memory", Exit::usage);
  impl_->start();
}

Digest::~Digest() = default;
Digest::Digest(Digest&&) noexcept = default;
Digest& Digest::operator=(Digest&&) noexcept = default;

void Digest::update(std::string_view bytes) {
  if (!bytes.empty() && evp().update(impl_->ctx, bytes.data(), bytes.size()) != 1)
    throw Error("hashing: EVP_DigestUpdate failed", Exit::usage);
}

std::string Digest::finish() {
  std::string out(EVP_MAX_MD_SIZE, '\0');
  unsigned int length = 0;
  if (evp().final(impl_->ctx, reinterpret_cast<unsigned char*>(out.data()), &length) != 1)
    throw Error("hashing: EVP_DigestFinal_ex failed", Exit::usage);
  out.resize(length);
  impl_->start();
  return out;
}

std::size_t Digest::size() const { return impl_->size; }

std::string hex_text(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

}  // namespace zanj::hash
