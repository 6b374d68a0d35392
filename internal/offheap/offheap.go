// Package offheap allocates large tables that hold no pointers out of the
// garbage-collected heap where the system allows (memory mapped from the
// system on Unix): a table of tens of megabytes kept in the heap lets the
// collector grow the heap by as much again before it runs, so that the
// process would take about twice the table's size.
package offheap

// MinBytes is the size from which Make keeps a block out of the heap:
// smaller ones are left to the heap, which reuses their memory once they
// are dropped (the small tables of many short inputs, each growing through
// several sizes) with no call to the system.
const MinBytes = 16 << 20
