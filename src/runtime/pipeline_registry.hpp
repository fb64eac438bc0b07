#pragma once
#include "runtime/pipeline.hpp"
