// OpenCV's cascade classifier behind cj_faces.h.
#include "cj_faces.h"

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

void set_error(char *error, size_t size, const std::string &message) {
  if (error && size > 0) std::snprintf(error, size, "%s", message.c_str());
}

// A classifier keeps state while it detects: one per thread and cascade file, loaded on first
// use and kept for the thread's life (cropjob's workers are long-lived).
cv::CascadeClassifier *classifier(const std::string &path, std::string &problem) {
  thread_local std::map<std::string, std::unique_ptr<cv::CascadeClassifier>> loaded;
  auto found = loaded.find(path);
  if (found != loaded.end()) return found->second.get();
  auto fresh = std::make_unique<cv::CascadeClassifier>();
  try {
    if (!fresh->load(path) || fresh->empty()) {
      problem = "cannot load the cascade " + path;
      return nullptr;
    }
  } catch (const cv::Exception &e) {
    problem = "cannot load the cascade " + path + ": " + e.what();
    return nullptr;
  }
  auto *pointer = fresh.get();
  loaded.emplace(path, std::move(fresh));
  return pointer;
}

// OpenCV's parallel_for_ would gather detections in an order that depends on timing, and
// cropjob already runs one detection per worker: OpenCV's own threads are turned off, once.
void single_threaded() {
  static std::once_flag once;
  std::call_once(once, [] { cv::setNumThreads(0); });
}

}  // namespace

extern "C" int cj_faces_check(const char *path, char *error, size_t error_size) {
  std::string problem;
  if (classifier(path, problem)) return 1;
  set_error(error, error_size, problem);
  return 0;
}

extern "C" int cj_faces_detect(
    const unsigned char *grey, int width, int height, int stride, const char *cascade, int min_size, cj_face *faces,
    int capacity, char *error, size_t error_size) {
  try {
    single_threaded();
    std::string problem;
    cv::CascadeClassifier *detector = classifier(cascade, problem);
    if (!detector) {
      set_error(error, error_size, problem);
      return -1;
    }
    cv::Mat wrapped(height, width, CV_8UC1, const_cast<unsigned char *>(grey), size_t(stride));
    cv::Mat equalised;
    cv::equalizeHist(wrapped, equalised);
    // A face against the photo's edge leaves the detector's window no context on that side:
    // the photo is detected with a mirrored border of an eighth of its short side, and the
    // boxes are moved back and clipped to the photo.
    const int border = std::min(width, height) / 8;
    cv::Mat padded;
    cv::copyMakeBorder(equalised, padded, border, border, border, border, cv::BORDER_REFLECT_101);
    std::vector<cv::Rect> boxes;
    std::vector<int> neighbours;
    detector->detectMultiScale(padded, boxes, neighbours, 1.1, 4, 0, cv::Size(min_size, min_size));
    std::vector<cj_face> found;
    const cv::Rect photo(0, 0, width, height);
    for (size_t i = 0; i < boxes.size(); i++) {
      cv::Rect r = boxes[i] - cv::Point(border, border);
      cv::Rect inside = r & photo;
      // A box mostly in the mirrored border is the mirror image of a face, not a face.
      if (inside.area() * 2 < r.area()) continue;
      found.push_back(cj_face{double(inside.x), double(inside.y), double(inside.width), double(inside.height),
                              i < neighbours.size() ? double(neighbours[i]) : 0});
    }
    std::sort(found.begin(), found.end(), [](const cj_face &a, const cj_face &b) {
      if (a.y != b.y) return a.y < b.y;
      if (a.x != b.x) return a.x < b.x;
      return a.width < b.width;
    });
    for (size_t i = 0; i < found.size() && int(i) < capacity; i++) faces[i] = found[i];
    return int(found.size());
  } catch (const cv::Exception &e) {
    set_error(error, error_size, std::string("OpenCV: ") + e.what());
    return -1;
  } catch (const std::exception &e) {
    set_error(error, error_size, e.what());
    return -1;
  }
}

extern "C" const char *cj_faces_opencv_version(void) { return CV_VERSION; }
