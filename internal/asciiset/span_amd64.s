//go:build !purego

#include "textflag.h"

// CLASSIFY leaves in Y5 0xff for each byte of Y0 that is not in the set:
// a byte is in it when the bits its low nibble selects in Y1 and its high
// nibble selects in Y2 meet (VPSHUFB gives 0 for an index with bit 7 set,
// so no byte from 0x80 up is).
#define CLASSIFY(R0, R1, R2, R3, R4, R5, R6) \
	VPSHUFB R0, R1, R4 \
	VPSRLW  $4, R0, R5 \
	VPAND   R3, R5, R5 \
	VPSHUFB R5, R2, R5 \
	VPAND   R4, R5, R5 \
	VPCMPEQB R6, R5, R5

// func span(p *byte, n int, nib *[48]byte) int
TEXT ·span(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), R9
	MOVQ nib+16(FP), DX
	VBROADCASTI128 (DX), Y1
	VBROADCASTI128 16(DX), Y2
	VBROADCASTI128 32(DX), Y3
	VPXOR Y6, Y6, Y6
	XORQ BX, BX
	CMPQ R9, $32
	JB   short

loop:
	LEAQ 32(BX), DI
	CMPQ DI, R9
	JA   last
	VMOVDQU (SI)(BX*1), Y0
	CLASSIFY(Y0, Y1, Y2, Y3, Y4, Y5, Y6)
	VPMOVMSKB Y5, AX
	TESTL AX, AX
	JNZ   found
	MOVQ DI, BX
	JMP  loop

last:
	// Fewer than 32 bytes are left: the last 32 bytes, less those
	// already checked.
	CMPQ BX, R9
	JEQ  all
	LEAQ -32(R9), DI
	VMOVDQU (SI)(DI*1), Y0
	CLASSIFY(Y0, Y1, Y2, Y3, Y4, Y5, Y6)
	VPMOVMSKB Y5, AX
	MOVQ BX, CX
	SUBQ DI, CX
	SHRL CX, AX
	TESTL AX, AX
	JZ    all
	JMP   found

short:
	// 16 to 31 bytes: the first 16, then the last 16 less those
	// already checked.
	VMOVDQU (SI), X0
	CLASSIFY(X0, X1, X2, X3, X4, X5, X6)
	VPMOVMSKB X5, AX
	TESTL AX, AX
	JNZ   found
	MOVQ $16, BX
	CMPQ R9, $16
	JEQ  all
	LEAQ -16(R9), DI
	VMOVDQU (SI)(DI*1), X0
	CLASSIFY(X0, X1, X2, X3, X4, X5, X6)
	VPMOVMSKB X5, AX
	MOVQ BX, CX
	SUBQ DI, CX
	SHRL CX, AX
	TESTL AX, AX
	JZ    all

found:
	BSFL AX, AX
	ADDQ BX, AX
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET

all:
	MOVQ R9, ret+24(FP)
	VZEROUPPER
	RET
