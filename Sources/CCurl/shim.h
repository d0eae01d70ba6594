// libcurl (Debian libcurl4-openssl-dev, pkg-config libcurl) with fixed-arity wrappers over its
// variadic calls, which Swift cannot make: each returns what the wrapped call returns (a
// CURLcode, CURLE_OK on success).
#ifndef CJ_CURL_SHIM_H
#define CJ_CURL_SHIM_H

#include <curl/curl.h>

/// curl_easy_setopt with a long (flags, sizes in the long range, timeouts).
static inline CURLcode cj_curl_set_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a curl_off_t (upload sizes).
static inline CURLcode cj_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a C string, which libcurl copies (URLs, methods, user names).
static inline CURLcode cj_curl_set_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a pointer libcurl keeps and does not copy (header lists, user data,
/// request bodies): it must outlive the transfer.
static inline CURLcode cj_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

/// The callback type of CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION and CURLOPT_READFUNCTION.
typedef size_t (*cj_curl_data_callback)(char *buffer, size_t size, size_t count, void *user);

/// curl_easy_setopt with a data callback.
static inline CURLcode cj_curl_set_callback(CURL *handle, CURLoption option, cj_curl_data_callback value) {
  return curl_easy_setopt(handle, option, value);
}

/// The callback type of CURLOPT_PREREQFUNCTION (libcurl 7.80 and later).
typedef int (*cj_curl_prereq_callback)(void *user, char *primary_ip, char *local_ip, int primary_port, int local_port);

/// curl_easy_setopt with a pre-request callback: called on each sending of a request, once its
/// connection is made or reused and before the request goes out (so again when libcurl sends
/// it anew on a fresh connection).
static inline CURLcode cj_curl_set_prereq_callback(CURL *handle, cj_curl_prereq_callback value) {
  return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, value);
}

/// curl_easy_getinfo for a long (the response code, the number of connects).
static inline CURLcode cj_curl_info_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

#endif
