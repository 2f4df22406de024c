package glibcfix

/*
#include <stdarg.h>
#include <stdio.h>

// __isoc23_sscanf is what glibc 2.38 headers turn sscanf into; forward it to vsscanf.
int __isoc23_sscanf(const char *s, const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	int r = vsscanf(s, fmt, ap);
	va_end(ap);
	return r;
}
*/
import "C"
