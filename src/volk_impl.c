/* volk's implementation, compiled into this library only.  With hidden visibility its global
 * function pointers are private to libvkconv and never interpose the application's. */
#include <volk.c>
