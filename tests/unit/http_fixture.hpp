#pragma once
// A loopback HTTP server for the remote/ unit tests: it serves one body, answering each
// request with what a test's `respond` function returns for it (by default a correct 206 for
// the Range asked). One connection at a time, a bounded number of requests, then it stops.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace zanj::test {

class HttpFixture {
 public:
  /// The request's Range header value ("bytes=0-9", "bytes=-100"), request number (from 0), and
  /// the body; returns the whole response (status line, headers, body).
  using Respond = std::function<std::string(const std::string& range, int request, const std::string& body)>;

  explicit HttpFixture(std::string body, Respond respond = {}, int max_requests = 32)
      : body_(std::move(body)), respond_(respond ? std::move(respond) : Respond(partial)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    socklen_t length = sizeof address;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    ::listen(listener_, 8);
    thread_ = std::thread([this, max_requests] { serve(max_requests); });
  }
  ~HttpFixture() {
    ::shutdown(listener_, SHUT_RDWR);
    ::close(listener_);
    thread_.join();
  }

  std::string url(const std::string& path = "/a.zanj") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  /// The requests received, headers included.
  std::vector<std::string> requests() const { return requests_; }

  /// A correct answer: 206 with the asked range, ETag "v1".
  static std::string partial(const std::string& range, int, const std::string& body) {
    std::size_t first = 0, last = body.size() - 1;
    const std::string spec = range.substr(6);
    if (spec[0] == '-') {
      first = body.size() - std::min<std::size_t>(std::stoull(spec.substr(1)), body.size());
    } else {
      first = std::stoull(spec.substr(0, spec.find('-')));
      last = std::stoull(spec.substr(spec.find('-') + 1));
    }
    return "HTTP/1.1 206 Partial Content\r\nETag: \"v1\"\r\nContent-Range: bytes " + std::to_string(first) + "-" +
           std::to_string(last) + "/" + std::to_string(body.size()) +
           "\r\nContent-Length: " + std::to_string(last - first + 1) + "\r\n\r\n" +
           body.substr(first, last - first + 1);
  }

 private:
  void serve(int max_requests) {
    for (int n = 0; n < max_requests;) {
      const int connection = ::accept(listener_, nullptr, nullptr);
      if (connection < 0) return;
      std::string request;
      char buffer[4096];
      while (request.find("\r\n\r\n") == std::string::npos) {
        const ssize_t got = ::read(connection, buffer, sizeof buffer);
        if (got <= 0) break;
        request.append(buffer, static_cast<std::size_t>(got));
      }
      if (!request.empty()) {
        requests_.push_back(request);
        std::string range;
        const std::size_t at = request.find("Range: ");
        if (at != std::string::npos) range = request.substr(at + 7, request.find("\r\n", at) - at - 7);
        const std::string response = respond_(range, n++, body_);
        // One response per connection: simpler than keep-alive, and libcurl reconnects.
        const std::string closing = response.substr(0, response.find("\r\n")) + "\r\nConnection: close" +
                                    response.substr(response.find("\r\n"));
        ::send(connection, closing.data(), closing.size(), MSG_NOSIGNAL);
      }
      ::close(connection);
    }
  }

  std::string body_;
  Respond respond_;
  int listener_ = -1;
  int port_ = 0;
  std::vector<std::string> requests_;
  std::thread thread_;
};

}  // namespace zanj::test
