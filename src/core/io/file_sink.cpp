#include "io/file_sink.hpp"

#include "zanj/error.hpp"

namespace zanj::io {

FileSink::FileSink(const std::string& path, Replace replace) : path_(path), replace_(replace) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  leaf_ = slash == std::string::npos ? path : path.substr(slash + 1);
  if (leaf_.empty() || leaf_ == "." || leaf_ == "..") throw Error(path + ": not a file name", Exit::usage);
  dir_ = open_user_directory(dir, CreateDirs::no);
  if (entry_type_at(dir_.get(), leaf_) == EntryType::directory) throw Error(path + ": is a directory", Exit::usage);
  temp_ = std::make_unique<TempFile>(dir_.get(), leaf_);
}

void FileSink::write(std::string_view bytes) {
  write_all_at(temp_->fd(), size_, bytes, path_);
  size_ += bytes.size();
}

void FileSink::patch(std::uint64_t offset, std::string_view bytes) { write_all_at(temp_->fd(), offset, bytes, path_); }

OutputObject FileSink::commit() {
  temp_->commit(leaf_, replace_);
  return {};
}

}  // namespace zanj::io
