#include "remote/jwt.hpp"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>

#include "base/shared_library.hpp"
#include "zanj/error.hpp"

namespace zanj::remote {
namespace {

/// The libcrypto functions signing needs, looked up once per process.
struct Signing {
  decltype(BIO_new_mem_buf)* bio_new_mem_buf;
  decltype(BIO_free)* bio_free;
  decltype(PEM_read_bio_PrivateKey)* read_private_key;
  decltype(EVP_PKEY_free)* pkey_free;
  decltype(EVP_MD_CTX_new)* ctx_new;
  decltype(EVP_MD_CTX_free)* ctx_free;
  decltype(EVP_get_digestbyname)* get_digestbyname;
  decltype(EVP_DigestSignInit)* sign_init;
  decltype(EVP_DigestSign)* sign;
};

const Signing& signing() {
  static const Signing functions = [] {
    const base::SharedLibrary& crypto = base::SharedLibrary::load("service account keys", {"libcrypto.so.3"});
    return Signing{crypto.symbol<decltype(BIO_new_mem_buf)>("BIO_new_mem_buf"),
                   crypto.symbol<decltype(BIO_free)>("BIO_free"),
                   crypto.symbol<decltype(PEM_read_bio_PrivateKey)>("PEM_read_bio_PrivateKey"),
                   crypto.symbol<decltype(EVP_PKEY_free)>("EVP_PKEY_free"),
                   crypto.symbol<decltype(EVP_MD_CTX_new)>("EVP_MD_CTX_new"),
                   crypto.symbol<decltype(EVP_MD_CTX_free)>("EVP_MD_CTX_free"),
                   crypto.symbol<decltype(EVP_get_digestbyname)>("EVP_get_digestbyname"),
                   crypto.symbol<decltype(EVP_DigestSignInit)>("EVP_DigestSignInit"),
                   crypto.symbol<decltype(EVP_DigestSign)>("EVP_DigestSign")};
  }();
  return functions;
}

[[noreturn]] void jwt_fail(const std::string& what) {
  throw Error("signing the service account assertion: " + what, Exit::usage);
}

}  // namespace

std::string base64url(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (const std::size_t left = bytes.size() - i; left > 0) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (left == 2) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    if (left == 2) out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

std::string rs256_jwt(std::string_view header_json, std::string_view claims_json, const std::string& private_key_pem) {
  const Signing& f = signing();
  const std::string signed_part = base64url(header_json) + "." + base64url(claims_json);
  std::unique_ptr<BIO, decltype(f.bio_free)> bio(
      f.bio_new_mem_buf(private_key_pem.data(), static_cast<int>(private_key_pem.size())), f.bio_free);
  if (!bio) jwt_fail("out of memory");
  std::unique_ptr<EVP_PKEY, decltype(f.pkey_free)> key(f.read_private_key(bio.get(), nullptr, nullptr, nullptr),
                                                       f.pkey_free);
  if (!key) jwt_fail("the private_key is not a PEM private key");
  std::unique_ptr<EVP_MD_CTX, decltype(f.ctx_free)> ctx(f.ctx_new(), f.ctx_free);
  const EVP_MD* sha256 = f.get_digestbyname("sha256");
  if (!ctx || !sha256 || f.sign_init(ctx.get(), nullptr, sha256, nullptr, key.get()) != 1)
    jwt_fail("libcrypto refused the key");
  std::size_t length = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(signed_part.data());
  if (f.sign(ctx.get(), nullptr, &length, data, signed_part.size()) != 1) jwt_fail("libcrypto could not sign");
  std::string signature(length, '\0');
  if (f.sign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length, data, signed_part.size()) != 1)
    jwt_fail("libcrypto could not sign");
  signature.resize(length);
  return signed_part + "." + base64url(signature);
}

}  // namespace zanj::remote
