package main

import "github.com/spf13/cobra"

func newCheckCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "check", Hidden: true} }

func newExplainCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "explain", Hidden: true} }

func newDecideCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "decide", Hidden: true} }
