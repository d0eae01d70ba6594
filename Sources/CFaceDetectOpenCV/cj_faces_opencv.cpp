// OpenCV's cascade classifier: the face detector's library (libCropjobFaces.so), which
// cj_faces.h's functions open with dlopen on first use and call through the entry points below.
#include "cj_faces_library.h"

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
#include <type_traits>
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

// The cascades' settings. The profile cascade is the second pass and the dearer one (on the
// face corpus it took 250 ms of CPU per photo and pass at scale step 1.1, against 190 ms for
// the frontal cascade): a coarser step of 1.2 makes it 150 ms. Its neighbour threshold is the
// smallest that put no box away from a face on the face corpus (Tests/Corpora/faces) and on
// samples/ at that step, 4, plus one: 2 put boxes on foliage, on samples/dragonfly-sideways-6.jpg
// and a second one on samples/cameraman.png, 3 still one (docs/job-file.md, "focus: faces").
constexpr double frontal_scale_step = 1.1;
constexpr int frontal_neighbours = 4;
constexpr double profile_scale_step = 1.2;
constexpr int profile_neighbours = 5;

// One cascade over the equalised photo with a mirrored border (see cj_faces_detect), boxes
// moved back to the photo's pixels; `flip` runs it on the mirror image and maps the boxes back.
std::vector<cj_face> run_cascade(
    cv::CascadeClassifier &detector, const cv::Mat &equalised, bool flip, double step, int neighbours, int min_size,
    int pose) {
  const int width = equalised.cols, height = equalised.rows;
  cv::Mat source = equalised;
  if (flip) cv::flip(equalised, source, 1);
  // A face against the photo's edge leaves the detector's window no context on that side:
  // the photo is detected with a mirrored border of an eighth of its short side, and the
  // boxes are moved back and clipped to the photo.
  const int border = std::min(width, height) / 8;
  cv::Mat padded;
  cv::copyMakeBorder(source, padded, border, border, border, border, cv::BORDER_REFLECT_101);
  std::vector<cv::Rect> boxes;
  std::vector<int> counts;
  detector.detectMultiScale(padded, boxes, counts, step, neighbours, 0, cv::Size(min_size, min_size));
  std::vector<cj_face> found;
  const cv::Rect photo(0, 0, width, height);
  for (size_t i = 0; i < boxes.size(); i++) {
    cv::Rect r = boxes[i] - cv::Point(border, border);
    cv::Rect inside = r & photo;
    // A box mostly in the mirrored border is the mirror image of a face, not a face.
    if (inside.area() * 2 < r.area()) continue;
    const int x = flip ? width - inside.x - inside.width : inside.x;
    found.push_back(cj_face{double(x), double(inside.y), double(inside.width), double(inside.height),
                            i < counts.size() ? double(counts[i]) : 0, pose});
  }
  return found;
}

bool overlap(const cj_face &a, const cj_face &b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

}  // namespace

extern "C" int cj_faces_library_check(const char *path, char *error, size_t error_size) {
  std::string problem;
  if (classifier(path, problem)) return 1;
  set_error(error, error_size, problem);
  return 0;
}

extern "C" int cj_faces_library_detect(
    const unsigned char *grey, int width, int height, int stride, const char *frontal, const char *profile,
    int min_size, cj_face *faces, int capacity, char *error, size_t error_size) {
  try {
    single_threaded();
    std::string problem;
    cv::CascadeClassifier *front = classifier(frontal, problem);
    cv::CascadeClassifier *side = (front && profile) ? classifier(profile, problem) : nullptr;
    if (!front || (profile && !side)) {
      set_error(error, error_size, problem);
      return -1;
    }
    cv::Mat wrapped(height, width, CV_8UC1, const_cast<unsigned char *>(grey), size_t(stride));
    cv::Mat equalised;
    cv::equalizeHist(wrapped, equalised);
    std::vector<cj_face> found =
        run_cascade(*front, equalised, false, frontal_scale_step, frontal_neighbours, min_size, CJ_FACE_FRONTAL);
    if (side) {
      // OpenCV's profile cascade finds faces turned one way; run on the mirror image it finds
      // those turned the other way. A profile box that overlaps a frontal one is that face
      // again (the frontal box stays); of two overlapping profile boxes the surer one stays.
      std::vector<cj_face> turned =
          run_cascade(*side, equalised, false, profile_scale_step, profile_neighbours, min_size, CJ_FACE_PROFILE);
      std::vector<cj_face> mirrored =
          run_cascade(*side, equalised, true, profile_scale_step, profile_neighbours, min_size, CJ_FACE_PROFILE);
      turned.insert(turned.end(), mirrored.begin(), mirrored.end());
      std::sort(turned.begin(), turned.end(), [](const cj_face &a, const cj_face &b) {
        if (a.score != b.score) return a.score > b.score;
        if (a.y != b.y) return a.y < b.y;
        if (a.x != b.x) return a.x < b.x;
        return a.width < b.width;
      });
      for (const cj_face &candidate : turned) {
        bool same = false;
        for (size_t i = 0; i < found.size() && !same; i++) same = overlap(candidate, found[i]);
        if (!same) found.push_back(candidate);
      }
    }
    std::sort(found.begin(), found.end(), [](const cj_face &a, const cj_face &b) {
      if (a.y != b.y) return a.y < b.y;
      if (a.x != b.x) return a.x < b.x;
      if (a.width != b.width) return a.width < b.width;
      return a.pose < b.pose;
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

// The version OpenCV's library reports (not the headers'): the one that ran.
extern "C" const char *cj_faces_library_version(void) {
  static const std::string version = cv::getVersionString();
  return version.c_str();
}

extern "C" int cj_faces_library_abi(void) { return CJ_FACES_ABI; }

// The entry points have the types the loader casts them to (cj_faces.h).
static_assert(std::is_same_v<decltype(&cj_faces_library_abi), cj_faces_abi_fn>);
static_assert(std::is_same_v<decltype(&cj_faces_library_check), cj_faces_check_fn>);
static_assert(std::is_same_v<decltype(&cj_faces_library_detect), cj_faces_detect_fn>);
static_assert(std::is_same_v<decltype(&cj_faces_library_version), cj_faces_version_fn>);
